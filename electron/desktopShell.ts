import { appId } from './appIdentity.js';

/** The window as the shell code uses it (Electron BrowserWindow methods). */
export interface ShellWindow {
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

/**
 * Brings the window to the front from the tray, a second launch or the macOS dock. `show()`
 * alone leaves a minimised window minimised (docs/api/browser-window.md: `restore()` "Restores
 * the window from minimized state to its previous state").
 */
export function bringToFront(window: ShellWindow): void {
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

/** Windows only (app.setAppUserModelId, docs/api/app.md): native notifications need it. */
export function applyAppIdentity(
  app: { setAppUserModelId(id: string): void },
  platform: NodeJS.Platform,
): void {
  if (platform === 'win32') app.setAppUserModelId(appId);
}

/**
 * The tray image for the platform. macOS wants a Template image — black and alpha only, named
 * `…Template.png` so the menu bar recolours it for light and dark mode — at 16×16 with an @2x
 * file beside it, which `nativeImage` picks up by name on Retina screens
 * (docs/api/native-image.md, "Template Image" and "High Resolution Image"). The alert icon (the
 * gateway is down, or something in it needs attention) carries a red dot, which a Template image
 * cannot show, so it is the coloured one everywhere.
 */
export function trayIconFile(platform: NodeJS.Platform, alert = false): string {
  if (alert) return 'trayAlert.png';
  return platform === 'darwin' ? 'trayTemplate.png' : 'tray.png';
}

/**
 * Closing the last window: with close-to-tray the window only hid and the gateway runs on; with
 * it off, closing the window quits, on every platform (the gateway is not a document app that
 * lives on in the macOS dock without windows).
 */
export function onAllWindowsClosed(closeToTray: boolean, quit: () => void): void {
  if (!closeToTray) quit();
}
