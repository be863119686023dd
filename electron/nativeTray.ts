import { join } from 'node:path';
import { Menu, nativeImage, Tray } from 'electron';
import { trayIconFile } from './desktopShell.js';
import type { TrayWidget } from './tray.js';

/** Electron's Tray behind the TrayWidget the shell's logic talks to (docs/api/tray.md). */
export function nativeTray(resources: string, platform: NodeJS.Platform): TrayWidget {
  const image = (alert: boolean) =>
    nativeImage.createFromPath(join(resources, trayIconFile(platform, alert)));
  const tray = new Tray(image(false));
  let alerted = false;
  return {
    setToolTip: (text) => tray.setToolTip(text),
    setAlert: (alert) => {
      if (alert === alerted) return;
      alerted = alert;
      tray.setImage(image(alert));
    },
    setMenu: (items) => tray.setContextMenu(Menu.buildFromTemplate(items)),
    onClick: (listener) => tray.on('click', listener),
  };
}
