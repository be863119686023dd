import type { Logger } from '../server/logging/logger.js';

/** What a window's `close` event should lead to. */
export type CloseOutcome =
  /** Let the window close (the app is quitting, or closing the window quits it). */
  | 'close'
  /** Hide it to the tray: the gateway runs on. */
  | 'hide'
  /** Prevent the close and quit the whole app, stopping the core cleanly. */
  | 'quit';

/**
 * Close-to-tray applies only to a person closing the visible window. A close request for a
 * window nobody can see comes from another program: `taskkill` without `/F` posts WM_CLOSE to
 * the app's windows, as does Windows' Restart Manager (and electron-builder's installer where
 * PowerShell is missing; with it, the installer asks through `--quit` first: secondStart.ts).
 * Hiding an already hidden window would swallow the request and leave the sender to kill the app
 * mid-send; so such a request quits, with the core's clean stop.
 */
export function closeOutcome(state: {
  /** The app is quitting or the session is ending: nothing may hold the close up. */
  quitting: boolean;
  closeToTray: boolean;
  windowVisible: boolean;
}): CloseOutcome {
  if (state.quitting || !state.closeToTray) return 'close';
  return state.windowVisible ? 'hide' : 'quit';
}

/** The part of BrowserWindow the close handling uses (docs/api/browser-window.md, event `close`). */
export interface ClosableWindow {
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
  isVisible(): boolean;
  hide(): void;
}

/** Hides on a person's close, quits on another program's (see `closeOutcome`). */
export function handleCloseRequests(
  window: ClosableWindow,
  deps: { quitting(): boolean; closeToTray(): boolean; quit(): void; logger: Logger },
): void {
  window.on('close', (event) => {
    const outcome = closeOutcome({
      quitting: deps.quitting(),
      closeToTray: deps.closeToTray(),
      windowVisible: window.isVisible(),
    });
    if (outcome === 'close') return;
    event.preventDefault();
    if (outcome === 'hide') {
      window.hide();
      return;
    }
    deps.logger.info('another program asked the app to close (an installer, taskkill); quitting');
    deps.quit();
  });
}
