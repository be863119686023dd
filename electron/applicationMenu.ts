/** A menu item as `Menu.buildFromTemplate` takes it (docs/api/menu-item.md), the parts we use. */
export type MenuTemplateItem =
  | { role: MenuRole }
  | { type: 'separator' }
  | { label: string; click: () => void }
  | { label: string; submenu: MenuTemplateItem[] }
  | { role: 'appMenu' | 'editMenu' | 'windowMenu' };

type MenuRole =
  | 'quit'
  | 'reload'
  | 'forceReload'
  | 'toggleDevTools'
  | 'resetZoom'
  | 'zoomIn'
  | 'zoomOut'
  | 'togglefullscreen';

export interface ApplicationMenuActions {
  openLogsFolder(): void;
  openApiDocs(): void;
}

/**
 * The window's menu bar. Electron's default menu offers the developer tools to anyone
 * (docs/api/menu.md, "Default menu"); a packaged app leaves them out, and the window is built
 * with `devTools: false` too, so their shortcut does nothing either. Runs from source
 * (`npm start`) keep them, with reload, for working on the UI.
 */
export function applicationMenu(
  platform: NodeJS.Platform,
  packaged: boolean,
  actions: ApplicationMenuActions,
): MenuTemplateItem[] {
  const development: MenuTemplateItem[] = packaged
    ? []
    : [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }];
  const logs = { label: 'Open logs folder', click: () => actions.openLogsFolder() };
  return [
    // macOS puts About, Hide and Quit in the menu named after the app.
    ...(platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
    {
      label: 'File',
      submenu: [
        logs,
        ...(platform === 'darwin' ? [] : [{ type: 'separator' } as const, { role: 'quit' } as const]),
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        ...development,
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      label: 'Help',
      submenu: [{ label: 'API documentation', click: () => actions.openApiDocs() }, logs],
    },
  ];
}

/** Every role anywhere in a menu template, for checks. */
export function rolesIn(items: readonly MenuTemplateItem[]): string[] {
  return items.flatMap((item) => [
    ...('role' in item ? [item.role] : []),
    ...('submenu' in item ? rolesIn(item.submenu) : []),
  ]);
}
