export interface TrayActions {
  toggleWindow(): void;
  /** Asks the core; the label changes when the core reports the new state (`showPaused`). */
  setSendingPaused(paused: boolean): void;
  quit(): void;
}

export type TrayMenuItem = { label: string; click: () => void } | { type: 'separator' };

/**
 * The tray menu for the core's current pause state. The state comes from the core (which also
 * hears the UI's pause button), so the label never drifts from what the gateway does.
 */
export function trayMenu(paused: boolean, actions: TrayActions): TrayMenuItem[] {
  return [
    { label: 'Show / hide window', click: () => actions.toggleWindow() },
    paused
      ? { label: 'Resume sending', click: () => actions.setSendingPaused(false) }
      : { label: 'Pause sending', click: () => actions.setSendingPaused(true) },
    { type: 'separator' },
    { label: 'Quit', click: () => actions.quit() },
  ];
}
