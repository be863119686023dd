import { createContext, useContext } from 'react';
import type { DesktopBridge } from '../../electron/ipcChannels.js';
import type { GatewayApi } from './api/gatewayApi.js';
import type { Session } from './session/session.js';

/** What every screen needs: the typed API, the session, and the Electron bridge when present. */
export interface AppServices {
  api: GatewayApi;
  session: Session;
  desktop: DesktopBridge | undefined;
  logOut(): void;
  /**
   * After the login changed, every token has ended, this window's session too: a browser signs
   * in again with the new login; the desktop window renews its session on the next 401 anyway.
   */
  signInAgain(username: string, password: string): Promise<void>;
}

export const AppContext = createContext<AppServices | null>(null);

export function useApp(): AppServices {
  const services = useContext(AppContext);
  if (!services) throw new Error('useApp() outside <AppContext.Provider>');
  return services;
}
