import type { FirstRunLogin } from './firstRunLogin.js';

/**
 * Every IPC channel between the renderer (through the preload) and the main process, in one
 * place (pattern: mattermost/desktop src/common/communication.ts). The preload exposes one named
 * function per channel; nothing else crosses.
 */
export const IpcChannel = {
  getConnection: 'gateway:get-connection',
  getPreferences: 'desktop:get-preferences',
  setPreference: 'desktop:set-preference',
  openApiDocs: 'desktop:open-api-docs',
  getFirstRunLogin: 'gateway:get-first-run-login',
  confirmFirstRunLoginSaved: 'gateway:confirm-first-run-login-saved',
} as const;

/** What the renderer needs to talk to the core: the same HTTP API every client uses. */
export interface CoreConnection {
  baseUrl: string;
  /**
   * A short-lived owner token holding every scope, for this window only, while the owner is the
   * only person. Absent once there are others: the window shows the sign-in form.
   */
  token?: string;
}

export interface DesktopPreferences {
  /** Native notification when an SMS arrives. */
  notifyOnIncoming: boolean;
  /**
   * Show the message's text in that notification. Off by default: a notification shows on the
   * lock screen and to whoever passes by the PC.
   */
  showSmsPreviews: boolean;
  /** Notification and tray alert when a modem goes offline, the queue is stuck, reports or webhooks fail. */
  notifyOnProblems: boolean;
  /**
   * Keep the PC from sleeping while messages wait to be sent, a campaign's included (Electron's
   * powerSaveBlocker). On by default: an office PC left alone would otherwise sleep with them.
   */
  keepAwakeWhileQueued: boolean;
  /** Start the app when the user logs in. */
  startAtLogin: boolean;
  /** Closing the window hides it to the tray; the gateway keeps running. */
  closeToTray: boolean;
  /**
   * Port of the API and the window on this computer; null: 8080. Overrides the port of
   * SMSGW_LISTEN and of --listen, so the fix chosen after a start-up failure always applies.
   */
  listenPort: number | null;
  /**
   * Run the built-in simulated modem (a demo: its messages reach no phone). Chosen by the user
   * on first run or in Settings; the desktop app never starts it on its own.
   */
  useSimulator: boolean;
}

export type PreferenceKey = keyof DesktopPreferences;
export type BooleanPreferenceKey = {
  [Key in PreferenceKey]: DesktopPreferences[Key] extends boolean ? Key : never;
}[PreferenceKey];

export const defaultPreferences: DesktopPreferences = {
  notifyOnIncoming: true,
  showSmsPreviews: false,
  notifyOnProblems: true,
  keepAwakeWhileQueued: true,
  startAtLogin: false,
  closeToTray: true,
  listenPort: null,
  useSimulator: false,
};

export function isPreferenceKey(value: unknown): value is PreferenceKey {
  return typeof value === 'string' && Object.hasOwn(defaultPreferences, value);
}

/** The facade the preload puts on `window.desktop` (typed for the renderer too). */
export interface DesktopBridge {
  getConnection(): Promise<CoreConnection>;
  getPreferences(): Promise<DesktopPreferences>;
  setPreference<Key extends PreferenceKey>(
    key: Key,
    value: DesktopPreferences[Key],
  ): Promise<DesktopPreferences>;
  openApiDocs(): Promise<void>;
  /** The login generated on first run, until the user confirms they saved it; else undefined. */
  getFirstRunLogin(): Promise<FirstRunLogin | undefined>;
  confirmFirstRunLoginSaved(): Promise<void>;
}
