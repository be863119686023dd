import type { BrowserWindow, Session } from 'electron';

/**
 * The window only ever shows our UI from the local core. Everything else is refused:
 * navigation elsewhere, new windows, permission prompts (camera, notifications from the page…).
 * The core serves the UI with its Content-Security-Policy header (server/http/contentSecurityPolicy.ts).
 */
export function isOwnUiUrl(url: string, baseUrl: string): boolean {
  try {
    const target = new URL(url);
    const base = new URL(baseUrl);
    return target.origin === base.origin && target.pathname.startsWith('/ui/');
  } catch {
    return false;
  }
}

export function lockDownSession(session: Session): void {
  session.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
}

export function lockDownWindow(window: BrowserWindow, baseUrl: () => string | undefined): void {
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.webContents.on('will-navigate', (event, url) => {
    const base = baseUrl();
    if (!base || !isOwnUiUrl(url, base)) event.preventDefault();
  });
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
}
