import { coreStatusLine } from './coreStatus.js';
import type { CoreState } from './coreSupervisor.js';

export interface TrayActions {
  toggleWindow(): void;
  /** Asks the core; the label changes when the core reports the new state (`showPaused`). */
  setSendingPaused(paused: boolean): void;
  /** Start the core now, without waiting for the next attempt. */
  retryNow(): void;
  /** No further automatic attempts until a person starts it. */
  stopRetrying(): void;
  openLogsFolder(): void;
  quit(): void;
}

export type TrayMenuItem =
  | { label: string; click: () => void }
  | { label: string; enabled: false }
  | { type: 'separator' };

export interface TrayState {
  core: CoreState;
  /** The core's own pause of sending, as it last reported it. */
  paused: boolean;
  /** What is wrong inside the running gateway, one line each (shown under the status). */
  alerts: string[];
  /** The window shows a gateway service this app did not start (attachedCore.ts). */
  attachedTo?: string;
}

/**
 * The tray menu for what the gateway is doing. The pause state comes from the core (which also
 * hears the UI's pause button), so the label never drifts from what the gateway does; while the
 * core is down, the menu offers to start it now or to stop the automatic attempts.
 */
export function trayMenu(
  state: TrayState,
  actions: TrayActions,
  formatTime: (epochMs: number) => string,
): TrayMenuItem[] {
  const { core } = state;
  const recovery: TrayMenuItem[] = [];
  if (core.kind === 'waiting-to-retry') {
    recovery.push(
      { label: 'Start the gateway now', click: () => actions.retryNow() },
      { label: 'Stop retrying', click: () => actions.stopRetrying() },
    );
  } else if (core.kind === 'stopped' && core.reason !== 'quit') {
    recovery.push({ label: 'Start the gateway', click: () => actions.retryNow() });
  }
  const sending: TrayMenuItem[] =
    core.kind !== 'running'
      ? []
      : [
          state.paused
            ? { label: 'Resume sending', click: () => actions.setSendingPaused(false) }
            : { label: 'Pause sending', click: () => actions.setSendingPaused(true) },
        ];
  return [
    {
      label: state.attachedTo
        ? `Showing the gateway service at ${state.attachedTo}`
        : coreStatusLine(core, formatTime),
      enabled: false,
    },
    ...state.alerts.map((alert): TrayMenuItem => ({ label: alert, enabled: false })),
    ...recovery,
    { type: 'separator' },
    { label: 'Show / hide window', click: () => actions.toggleWindow() },
    ...sending,
    { label: 'Open logs folder', click: () => actions.openLogsFolder() },
    { type: 'separator' },
    { label: 'Quit', click: () => actions.quit() },
  ];
}
