import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DesktopBridge } from '../../electron/ipcChannels.js';
import { createApiClient, describeError } from './api/apiClient.js';
import { createGatewayApi } from './api/gatewayApi.js';
import { AppContext, type AppServices } from './appContext.js';
import { LiveEventsProvider } from './live/LiveEvents.js';
import { Shell } from './Shell.js';
import { LoginScreen } from './screens/LoginScreen.js';
import {
  logIn,
  readStoredSession,
  type Session,
  sessionStorageKey,
  storeSession,
} from './session/session.js';
import { announceSignOut, askOtherTabs, serveSession } from './session/sessionSharing.js';

function desktopBridge(): DesktopBridge | undefined {
  return (window as Window & { desktop?: DesktopBridge }).desktop;
}

export function App() {
  const desktop = useMemo(desktopBridge, []);
  const [session, setSession] = useState<Session | undefined>(() =>
    desktop ? undefined : readStoredSession(window.sessionStorage, Date.now()),
  );
  const [desktopError, setDesktopError] = useState<unknown>(undefined);
  // The core's address while the desktop window asks a person to sign in: people other than the
  // owner exist, so the window gets no owner session.
  const [desktopSignIn, setDesktopSignIn] = useState<string | undefined>(undefined);
  // A new browser tab first asks the signed-in tabs for their session (see sessionSharing.ts).
  const [askingTabs, setAskingTabs] = useState(!desktop && session === undefined);
  // The token lives in a ref so renewing it (Electron) changes no state: screens keep their data.
  const tokenRef = useRef(session?.token);
  // A login change in flight (changeLogin): a 401 meanwhile waits for its new session.
  const loginChange = useRef<Promise<void> | undefined>(undefined);

  const begin = useCallback((next: Session) => {
    tokenRef.current = next.token;
    setSession(next);
  }, []);

  const end = useCallback(() => {
    tokenRef.current = undefined;
    window.sessionStorage.removeItem(sessionStorageKey);
    setSession(undefined);
  }, []);

  const signOut = useCallback(() => {
    announceSignOut();
    end();
  }, [end]);

  const signedIn = useCallback(
    (next: Session) => {
      if (!desktop) storeSession(window.sessionStorage, next);
      begin(next);
    },
    [desktop, begin],
  );

  useEffect(() => {
    if (!askingTabs) return;
    void askOtherTabs().then((shared) => {
      if (shared) {
        storeSession(window.sessionStorage, shared);
        begin(shared);
      }
      setAskingTabs(false);
    });
  }, [askingTabs, begin]);

  useEffect(() => {
    if (session?.mode !== 'browser') return;
    return serveSession(session, end);
  }, [session, end]);

  const connectDesktop = useCallback(async (): Promise<boolean> => {
    if (!desktop) return false;
    try {
      const connection = await desktop.getConnection();
      setDesktopError(undefined);
      if (connection.token === undefined) {
        end();
        setDesktopSignIn(connection.baseUrl);
        return false;
      }
      setDesktopSignIn(undefined);
      if (tokenRef.current === undefined) {
        begin({ mode: 'desktop', baseUrl: connection.baseUrl, token: connection.token });
      } else {
        tokenRef.current = connection.token;
      }
      return true;
    } catch (error) {
      setDesktopError(error);
      return false;
    }
  }, [desktop, begin, end]);

  useEffect(() => {
    void connectDesktop();
  }, [connectDesktop]);

  // With the window's owner session a 401 means "the short-lived token ran out": fetch the
  // renewed one and retry. A person's signed-in token (browser or window) ended: sign in again.
  const onUnauthorized = useCallback(async () => {
    if (session?.mode === 'desktop') return connectDesktop();
    const changing = loginChange.current;
    if (changing !== undefined && (await succeeded(changing))) return true;
    // A request sent with a token this window has since replaced (a login change signed it in
    // again) is retried with the new one: it says nothing of the session that holds now.
    if (session !== undefined && session.token !== tokenRef.current) return true;
    end();
    if (desktop) void connectDesktop();
    return false;
  }, [session, desktop, connectDesktop, end]);

  const authorization = useCallback(() => (tokenRef.current ? `Bearer ${tokenRef.current}` : undefined), []);

  const changeLogin = useCallback(
    async (change: () => Promise<void>, username: string, password: string) => {
      const changing = (async () => {
        await change();
        if (session?.mode === 'browser') signedIn(await logIn(session.baseUrl, username, password));
      })();
      loginChange.current = changing;
      try {
        await changing;
      } finally {
        if (loginChange.current === changing) loginChange.current = undefined;
      }
    },
    [session, signedIn],
  );

  const services = useMemo<AppServices | undefined>(() => {
    if (!session) return undefined;
    const client = createApiClient({ baseUrl: session.baseUrl, authorization, onUnauthorized });
    return { api: createGatewayApi(client), session, desktop, logOut: signOut, changeLogin };
  }, [session, authorization, onUnauthorized, desktop, signOut, changeLogin]);

  if (!services) {
    if (desktop && desktopSignIn !== undefined) {
      return <LoginScreen baseUrl={desktopSignIn} onLoggedIn={signedIn} />;
    }
    if (desktop) {
      return (
        <main className="centered">
          {desktopError ? (
            <div className="note note-error" role="alert">
              The gateway core is not answering: {describeError(desktopError)}{' '}
              <button type="button" onClick={() => void connectDesktop()}>
                Try again
              </button>
            </div>
          ) : (
            <p className="muted">Connecting to the gateway…</p>
          )}
        </main>
      );
    }
    if (askingTabs) {
      return (
        <main className="centered">
          <p className="muted">Connecting to the gateway…</p>
        </main>
      );
    }
    return <LoginScreen baseUrl={window.location.origin} onLoggedIn={signedIn} />;
  }

  return (
    <AppContext.Provider value={services}>
      <LiveEventsProvider
        baseUrl={services.session.baseUrl}
        authorization={authorization}
        onUnauthorized={onUnauthorized}
      >
        <Shell />
      </LiveEventsProvider>
    </AppContext.Provider>
  );
}

/** Whether `work` settles without an error. */
function succeeded(work: Promise<unknown>): Promise<boolean> {
  return work.then(
    () => true,
    () => false,
  );
}
