/**
 * The installer's identity, repeated from electron-builder.yml (`appId`, `productName`);
 * test/electron/desktopShell.test.ts keeps them equal. Windows shows notifications only for an
 * app whose AppUserModelID matches the one its Start-menu shortcut carries, which the NSIS
 * installer sets to the appId (electron-builder docs, "NSIS"; Electron docs, "Notifications",
 * Windows).
 */
export const appId = 'app.desktop-sms-gateway';
export const productName = 'Desktop SMS Gateway';
