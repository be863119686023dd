import type { Clock, TimerHandle } from '../server/clock/clock.js';
import type { Logger } from '../server/logging/logger.js';
import type { Notice } from './coreStatus.js';

/**
 * The part of electron-updater's `autoUpdater` the app uses (electron-updater AppUpdater:
 * `autoDownload`, `autoInstallOnAppQuit`, `checkForUpdates()`, `quitAndInstall()`, events
 * `update-downloaded` and `error`). It reads its feed from `app-update.yml` beside the app, which
 * electron-builder writes only when the build has a `publish` entry (docs/desktop.md).
 */
export interface AutoUpdater {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface UpdateOptions {
  /** electron-updater's autoUpdater, loaded only when a feed is configured. */
  updater: () => AutoUpdater;
  /** Whether the build names a feed (`app-update.yml` exists): without one, updates are off. */
  feedConfigured: boolean;
  clock: Clock;
  logger: Logger;
  notify(notice: Notice): void;
  /** Let the windows close for the installer (close-to-tray would hold them). */
  prepareToQuit(): void;
  checkEveryMs?: number;
}

/**
 * Checks the configured feed at start and every few hours, downloads in the background, and
 * installs a downloaded update only while no message waits for or is being handed to a modem:
 * the installer stops the app, and a send cut half-way may reach the phone twice or not at all.
 * Until then the update waits (a Quit installs it too, after the core's clean stop).
 */
export class UpdateInstaller {
  private updater?: AutoUpdater;
  private downloaded?: string;
  private pending = Number.POSITIVE_INFINITY;
  private timer?: TimerHandle;
  private installing = false;

  constructor(private readonly options: UpdateOptions) {}

  get enabled(): boolean {
    return this.updater !== undefined;
  }

  start(): void {
    if (!this.options.feedConfigured) {
      this.options.logger.info('updates are off: this build names no update feed');
      return;
    }
    const updater = this.options.updater();
    this.updater = updater;
    updater.autoDownload = true;
    updater.autoInstallOnAppQuit = true;
    updater.on('error', (error) => this.options.logger.warn('update check failed', { error: error.message }));
    updater.on('update-downloaded', ({ version }) => {
      this.downloaded = version;
      this.options.logger.info('update downloaded; installing once no message is being sent', { version });
      this.installWhenIdle();
    });
    this.check();
  }

  /** The core's queue: messages waiting or being handed to a modem. Unknown (no core) counts as busy. */
  queueChanged(pending: number | undefined): void {
    this.pending = pending ?? Number.POSITIVE_INFINITY;
    this.installWhenIdle();
  }

  stop(): void {
    this.timer?.cancel();
  }

  private check(): void {
    const updater = this.updater;
    if (!updater) return;
    updater
      .checkForUpdates()
      .catch((error: unknown) => this.options.logger.warn('update check failed', { error: String(error) }));
    this.timer = this.options.clock.setTimer(() => this.check(), this.options.checkEveryMs ?? 6 * 3_600_000);
  }

  private installWhenIdle(): void {
    if (!this.updater || this.downloaded === undefined || this.installing || this.pending > 0) return;
    this.installing = true;
    this.options.logger.info('installing the update', { version: this.downloaded });
    this.options.notify({
      title: 'Updating Desktop SMS Gateway',
      body: `Version ${this.downloaded} is being installed; the gateway is back in a minute.`,
    });
    this.options.prepareToQuit();
    // Silent, and start the app again afterwards: nobody may be at the PC.
    this.updater.quitAndInstall(true, true);
  }
}
