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
   * Runs `change`, a change of the login that ends this window's token, then signs in again
   * with the new one (a browser, or a person's window; the owner's desktop session renews on
   * its next 401). A screen's request that meets the ended token meanwhile waits for the new
   * session instead of ending it.
   */
  changeLogin(change: () => Promise<void>, username: string, password: string): Promise<void>;
}

export const AppContext = createContext<AppServices | null>(null);

export function useApp(): AppServices {
  const services = useContext(AppContext);
  if (!services) throw new Error('useApp() outside <AppContext.Provider>');
  return services;
}
