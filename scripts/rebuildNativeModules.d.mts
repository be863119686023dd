// Types for scripts/rebuildNativeModules.mjs, electron-builder's beforeBuild hook.
import type { RebuildOptions } from '@electron/rebuild';

export const prebuiltNapiModules: string[];
export default function rebuildNativeModules(
  context: { appDir: string; electronVersion: string; platform: { nodeName: NodeJS.Platform }; arch: string },
  rebuildModules?: (options: RebuildOptions) => PromiseLike<unknown>,
): Promise<false>;
