import { Menu, nativeImage, Tray } from 'electron';

export interface TrayActions {
  toggleWindow(): void;
  setSendingPaused(paused: boolean): void;
  quit(): void;
}

/** Tray icon with show/hide, pause/resume sending and quit (the gateway runs while hidden). */
export class GatewayTray {
  private readonly tray: Tray;
  private paused = false;

  constructor(
    iconPath: string,
    private readonly actions: TrayActions,
  ) {
    this.tray = new Tray(nativeImage.createFromPath(iconPath));
    this.tray.setToolTip('Desktop SMS Gateway');
    this.tray.on('click', () => actions.toggleWindow());
    this.render();
  }

  private render(): void {
    this.tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: 'Show / hide window', click: () => this.actions.toggleWindow() },
        {
          label: this.paused ? 'Resume sending' : 'Pause sending',
          click: () => {
            this.paused = !this.paused;
            this.actions.setSendingPaused(this.paused);
            this.render();
          },
        },
        { type: 'separator' },
        { label: 'Quit', click: () => this.actions.quit() },
      ]),
    );
  }
}
