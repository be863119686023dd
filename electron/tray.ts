import { coreStatusLine, isCoreDown } from './coreStatus.js';
import type { CoreState } from './coreSupervisor.js';
import { type TrayActions, type TrayMenuItem, type TrayState, trayMenu } from './trayMenu.js';

/**
 * The part of Electron's `Tray` the app uses (docs/api/tray.md: `setToolTip`, `setImage`,
 * `setContextMenu` with a menu built from a template, the `click` event). main.ts hands the
 * real one, built from `Menu.buildFromTemplate`; tests hand the double.
 */
export interface TrayWidget {
  setToolTip(text: string): void;
  /** Which of the two icons: the plain one, or the one marked for "the gateway is down". */
  setAlert(alert: boolean): void;
  setMenu(items: TrayMenuItem[]): void;
  onClick(listener: () => void): void;
}

const timeOfDay = (epochMs: number) =>
  new Date(epochMs).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/**
 * Tray icon with the gateway's state in its tooltip, icon and menu: show/hide, pause/resume
 * sending, start now or stop retrying while the core is down, and quit (the gateway runs while
 * the window is hidden).
 */
export class GatewayTray {
  private state: TrayState = { core: { kind: 'starting' }, paused: false, alerts: [] };

  constructor(
    private readonly widget: TrayWidget,
    private readonly actions: TrayActions,
    private readonly formatTime: (epochMs: number) => string = timeOfDay,
  ) {
    widget.onClick(() => actions.toggleWindow());
    this.render();
  }

  /** The core's sending state: unpaused until the core reports it, after every start. */
  showPaused(paused: boolean): void {
    this.state = { ...this.state, paused };
    this.render();
  }

  showCore(core: CoreState): void {
    this.state = { ...this.state, core, paused: core.kind === 'running' ? this.state.paused : false };
    this.render();
  }

  /** What is wrong inside a running gateway (a modem offline…), one line each; empty: nothing. */
  showAlerts(alerts: readonly string[]): void {
    this.state = { ...this.state, alerts: [...alerts] };
    this.render();
  }

  /** No core of this app runs: its window shows the gateway service at `url`. */
  showAttached(url: string): void {
    this.state = { ...this.state, attachedTo: url };
    this.render();
  }

  private render(): void {
    const status = this.state.attachedTo
      ? `showing the gateway service at ${this.state.attachedTo}`
      : coreStatusLine(this.state.core, this.formatTime);
    const lines = [`Desktop SMS Gateway: ${status}`, ...this.state.alerts];
    this.widget.setToolTip(lines.join('\n'));
    const down = this.state.attachedTo === undefined && isCoreDown(this.state.core);
    this.widget.setAlert(down || this.state.alerts.length > 0);
    this.widget.setMenu(trayMenu(this.state, this.actions, this.formatTime));
  }
}
