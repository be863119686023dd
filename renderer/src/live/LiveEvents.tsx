import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { LiveEventName } from '../../../server/contract/domain/liveEvents.js';
import { buildUrl, type UnauthorizedHandler } from '../api/apiClient.js';
import { openEventStream, type StreamState } from '../api/eventStream.js';

/**
 * One live connection to GET /gateway/v1/events for the whole window; screens subscribe to the
 * event kinds they show (the server's `LiveEventNames`: message, incoming, device, log, refused-ports).
 */
export type { LiveEventName };

type Listener = (data: unknown) => void;

interface LiveEvents {
  state: StreamState;
  subscribe(event: LiveEventName, listener: Listener): () => void;
}

const LiveContext = createContext<LiveEvents | null>(null);

export function LiveEventsProvider(props: {
  baseUrl: string;
  authorization: () => string | undefined;
  onUnauthorized: UnauthorizedHandler;
  children: ReactNode;
}) {
  const listeners = useRef(new Map<string, Set<Listener>>());
  const [state, setState] = useState<StreamState>('connecting');
  const { baseUrl, authorization, onUnauthorized } = props;

  useEffect(() => {
    const handle = openEventStream({
      url: buildUrl(baseUrl, '/gateway/v1/events'),
      authorization,
      onUnauthorized,
      onState: (next) => setState(next),
      onEvent: (event) => {
        const subscribers = listeners.current.get(event.event);
        if (!subscribers || subscribers.size === 0) return;
        let data: unknown;
        try {
          data = JSON.parse(event.data);
        } catch {
          return;
        }
        for (const listener of subscribers) listener(data);
      },
    });
    return () => handle.close();
  }, [baseUrl, authorization, onUnauthorized]);

  const subscribe = useCallback((event: LiveEventName, listener: Listener) => {
    const set = listeners.current.get(event) ?? new Set<Listener>();
    listeners.current.set(event, set);
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }, []);

  const value = useMemo<LiveEvents>(() => ({ state, subscribe }), [state, subscribe]);
  return <LiveContext.Provider value={value}>{props.children}</LiveContext.Provider>;
}

function useLive(): LiveEvents {
  const live = useContext(LiveContext);
  if (!live) throw new Error('live events used outside <LiveEventsProvider>');
  return live;
}

export function useStreamState(): StreamState {
  return useLive().state;
}

/** Calls `listener` for every live event of that kind while the component is mounted. */
export function useLiveEvent<T>(event: LiveEventName, listener: (data: T) => void): void {
  const { subscribe } = useLive();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => subscribe(event, (data) => latest.current(data as T)), [subscribe, event]);
}
