import { Menu, nativeImage, Tray } from 'electron';
import { type TrayActions, trayMenu } from './trayMenu.js';

/** Tray icon with show/hide, pause/resume sending and quit (the gateway runs while hidden). */
export class GatewayTray {
  private readonly tray: Tray;

  constructor(
    iconPath: string,
    private readonly actions: TrayActions,
  ) {
    this.tray = new Tray(nativeImage.createFromPath(iconPath));
    this.tray.setToolTip('Desktop SMS Gateway');
    this.tray.on('click', () => actions.toggleWindow());
    this.showPaused(false);
  }

  /** The core's sending state: unpaused until the core reports it, after every start. */
  showPaused(paused: boolean): void {
    this.tray.setContextMenu(Menu.buildFromTemplate(trayMenu(paused, this.actions)));
  }
}
