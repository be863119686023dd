// Sandboxed preloads must be CommonJS: this file compiles to preload.cjs.
// It exposes exactly the DesktopBridge functions; never raw ipcRenderer.
import type { DesktopBridge } from './ipcChannels.js';

const { contextBridge, ipcRenderer } = require('electron') as typeof import('electron');

// Channel names are repeated here because a sandboxed preload cannot require local modules.
const bridge: DesktopBridge = {
  getConnection: () => ipcRenderer.invoke('gateway:get-connection'),
  getPreferences: () => ipcRenderer.invoke('desktop:get-preferences'),
  setPreference: (key, value) => ipcRenderer.invoke('desktop:set-preference', key, value),
  openApiDocs: () => ipcRenderer.invoke('desktop:open-api-docs'),
  getFirstRunLogin: () => ipcRenderer.invoke('gateway:get-first-run-login'),
  confirmFirstRunLoginSaved: () => ipcRenderer.invoke('gateway:confirm-first-run-login-saved'),
};

contextBridge.exposeInMainWorld('desktop', bridge);
