// electron-builder's `beforeBuild` hook (electron-builder.yml): rebuilds the app's native
// modules for Electron itself, then answers false so electron-builder does not run its own
// rebuild over them.
//
// Why: electron-builder 26 hands every native module to @electron/rebuild, which recognises a
// prebuildify prebuild only under the names `node.napi.node` / `electron.napi.node`. serialport's
// @serialport/bindings-cpp ships its N-API prebuilds as `prebuilds/<platform>-<arch>/
// @serialport+bindings-cpp*.node` (loaded at run time by node-gyp-build), so @electron/rebuild
// misses them and compiles serialport from source (a compiler and Python on every build machine,
// and a binary nobody tested). N-API binaries run unchanged under Electron, so serialport is left
// as it is. Every other native module — V8-ABI ones like better-sqlite3 DO need it — is still
// rebuilt here for the target Electron version, platform and arch.
import { rebuild } from '@electron/rebuild';

/** Native modules that ship N-API prebuilds @electron/rebuild cannot see: never rebuilt. */
export const prebuiltNapiModules = ['@serialport/bindings-cpp'];

/**
 * @param {{ appDir: string, electronVersion: string, platform: { nodeName: NodeJS.Platform }, arch: string }} context
 * @param {(options: import('@electron/rebuild').RebuildOptions) => PromiseLike<unknown>} rebuildModules
 *   @electron/rebuild's `rebuild`; tests pass a recorder.
 */
export default async function rebuildNativeModules(context, rebuildModules = rebuild) {
  await rebuildModules({
    buildPath: context.appDir,
    electronVersion: context.electronVersion,
    platform: context.platform.nodeName,
    arch: context.arch,
    ignoreModules: prebuiltNapiModules,
    mode: 'sequential',
    // As electron-builder passes it: keep node-pre-gyp modules' files where they are.
    disablePreGypCopy: true,
  });
  return false;
}
