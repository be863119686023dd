import { type JSX, useEffect, useState } from 'react';
import type { StreamState } from './api/eventStream.js';
import { useApp } from './appContext.js';
import { FirstRunLoginPanel } from './firstRun/FirstRunLoginPanel.js';
import { NoModemChoice } from './firstRun/NoModemChoice.js';
import { FleetIndicator } from './fleet/FleetIndicator.js';
import { useScreen } from './hashRoute.js';
import { FreshnessContext } from './live/freshness.js';
import { useStreamState } from './live/LiveEvents.js';
import { OwnPasswordPanel } from './people/OwnPasswordPanel.js';
import { OwnSmppLogin } from './people/SmppLoginControls.js';
import { type ScreenId, screenScopes, screens } from './screenList.js';
import { ApiAccessScreen } from './screens/ApiAccessScreen.js';
import { CampaignsScreen } from './screens/CampaignsScreen.js';
import { ContactsScreen } from './screens/ContactsScreen.js';
import { ConversationsScreen } from './screens/ConversationsScreen.js';
import { DashboardScreen } from './screens/DashboardScreen.js';
import { InboxScreen } from './screens/InboxScreen.js';
import { LogsScreen } from './screens/LogsScreen.js';
import { MessagesScreen } from './screens/MessagesScreen.js';
import { ModemsScreen } from './screens/ModemsScreen.js';
import { OptOutsScreen } from './screens/OptOutsScreen.js';
import { PeopleScreen } from './screens/PeopleScreen.js';
import { RoutingScreen } from './screens/RoutingScreen.js';
import { RulesScreen } from './screens/RulesScreen.js';
import { SettingsScreen } from './screens/SettingsScreen.js';
import { TemplatesScreen } from './screens/TemplatesScreen.js';
import { WebhooksScreen } from './screens/WebhooksScreen.js';
import { PersonContext, personOf } from './session/person.js';
import { StatusBar } from './status/StatusBar.js';
import { useResource } from './useResource.js';

const screenViews: Record<ScreenId, () => JSX.Element> = {
  dashboard: DashboardScreen,
  conversations: ConversationsScreen,
  messages: MessagesScreen,
  rules: RulesScreen,
  optouts: OptOutsScreen,
  inbox: InboxScreen,
  contacts: ContactsScreen,
  templates: TemplatesScreen,
  campaigns: CampaignsScreen,
  modems: ModemsScreen,
  routing: RoutingScreen,
  webhooks: WebhooksScreen,
  logs: LogsScreen,
  settings: SettingsScreen,
  api: ApiAccessScreen,
  people: PeopleScreen,
};

const streamLabels = {
  connecting: 'Connecting…',
  open: 'Live',
  retrying: 'Reconnecting…',
  closed: 'Offline',
} as const;

export function Shell() {
  const screen = useScreen();
  const { api, session, logOut } = useApp();
  const me = useResource(() => api.me(), [api]);
  const person = personOf(me.data);
  const stream = useStreamState();
  const View = screenViews[screen];
  const label = screens.find((entry) => entry.id === screen)?.label ?? '';
  const { staleSince, freshness } = useStaleness(stream);
  useEffect(() => {
    document.title = `${label} — Desktop SMS Gateway`;
  }, [label]);
  return (
    <PersonContext.Provider value={person}>
      <div className="shell">
        {/* The location hash names the screen: following "#main" would leave it, so the link
            moves the focus itself. */}
        {/* biome-ignore lint/a11y/useValidAnchor: a skip link is a link (WCAG technique G1), whose default the hash router cannot take. */}
        <a
          className="skip-link"
          href="#main"
          onClick={(event) => {
            event.preventDefault();
            document.getElementById('main')?.focus();
          }}
        >
          Skip to content
        </a>
        <nav className="sidebar" aria-label="Screens">
          <div className="brand">Desktop SMS Gateway</div>
          <ul>
            {screens
              .filter((entry) => {
                const scope = screenScopes[entry.id];
                return scope === undefined || person.may(scope);
              })
              .map((entry) => (
                <li key={entry.id}>
                  <a href={`#/${entry.id}`} aria-current={entry.id === screen ? 'page' : undefined}>
                    {entry.label}
                  </a>
                </li>
              ))}
          </ul>
          <div className="sidebar-foot">
            <span className={`live-dot live-${stream}`} role="status" title="Live updates from the gateway">
              {streamLabels[stream]}
            </span>
            <FleetIndicator />
            {session.mode === 'browser' && (
              <button type="button" className="link-button" onClick={logOut}>
                Sign out{session.username ? ` ${session.username}` : ''}
              </button>
            )}
            {person.me && (
              <span title="Signed in as">
                {person.me.name} ({person.me.role})
              </span>
            )}
            {person.me && person.me.role !== 'app' && <OwnPasswordPanel />}
            <OwnSmppLogin />
          </div>
        </nav>
        <main
          id="main"
          className="content"
          tabIndex={-1}
          aria-label={label}
          data-stale={staleSince === undefined ? undefined : 'true'}
        >
          <FreshnessContext.Provider value={freshness}>
            <StatusBar staleSince={staleSince} />
            <div className="screen-data">
              <FirstRunLoginPanel />
              <NoModemChoice />
              <View />
            </div>
          </FreshnessContext.Provider>
        </main>
      </div>
    </PersonContext.Provider>
  );
}

/**
 * While the live stream is down nothing on screen is kept current: `staleSince` says since when.
 * When it is back, `freshness` counts up and every read on screen runs again (`freshness.ts`).
 */
function useStaleness(stream: StreamState): { staleSince: number | undefined; freshness: number } {
  const [staleSince, setStaleSince] = useState<number | undefined>(undefined);
  const [freshness, setFreshness] = useState(0);
  useEffect(() => {
    if (stream === 'open' && staleSince !== undefined) {
      setStaleSince(undefined);
      setFreshness((count) => count + 1);
    } else if ((stream === 'retrying' || stream === 'closed') && staleSince === undefined) {
      setStaleSince(Date.now());
    }
  }, [stream, staleSince]);
  return { staleSince, freshness };
}
