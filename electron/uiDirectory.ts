import { dirname, join } from 'node:path';

/**
 * Where the core serves the UI from: `dist/ui`, beside the compiled core. In a packaged app that
 * path lies inside `app.asar`; electron-builder.yml unpacks `dist/ui` next to the archive
 * (`app.asar.unpacked`), and the core reads it there as plain files instead of through
 * Electron's asar layer.
 */
export function uiDirectoryFor(coreModuleFile: string): string {
  const inBuild = join(dirname(coreModuleFile), '..', 'ui');
  return inBuild.replace(/([\\/])app\.asar(?=[\\/])/, '$1app.asar.unpacked');
}
