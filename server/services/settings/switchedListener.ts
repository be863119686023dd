import type { Settings } from '../../contract/schemas/settingsSchema.js';
import { describeError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { SettingsService } from './settingsService.js';

/** How a listener the settings turn on and off stands, for the status bar. */
export type ListenerState =
  | { state: 'off' }
  | { state: 'listening'; host: string; port: number }
  | { state: 'failed'; error: string };

export interface Listening {
  readonly port: number;
  /** Clients connected now. */
  openSessions(): number;
  close(): Promise<void>;
}

export interface SwitchedListener {
  state(): ListenerState;
  /** Clients connected now (0 while off). */
  openSessions(): number;
  /** Resolves once the latest settings are applied (started, restarted or stopped). */
  settled(): Promise<void>;
}

/**
 * Runs a listener while its settings turn it on (SMTP, SMPP): started at once if on, restarted
 * when its configuration changes, stopped when turned off or when the gateway stops. Changes
 * apply one at a time, in order; a listener that cannot start leaves `failed` with the reason.
 */
export function startSwitchedListener<Config extends { host: string; port: number }>(
  context: {
    settings: Pick<SettingsService, 'current' | 'onChange'>;
    /** Where the listener's stop goes: it runs when the gateway stops. */
    stops: { add(stop: () => Promise<void>): void };
    logger: Logger;
  },
  listener: {
    name: string;
    /** The configuration in force, or undefined while it is turned off. */
    configOf(settings: Settings): Config | undefined;
    start(config: Config): Promise<Listening>;
  },
): SwitchedListener {
  const { settings, logger } = context;
  let running: Listening | undefined;
  let applied = '';
  let state: ListenerState = { state: 'off' };
  let chain = Promise.resolve();

  const apply = async (config: Config | undefined): Promise<void> => {
    const key = JSON.stringify(config ?? null);
    if (key === applied) return;
    applied = key;
    if (running) {
      await running.close();
      running = undefined;
    }
    state = { state: 'off' };
    if (!config) return;
    try {
      running = await listener.start(config);
      state = { state: 'listening', host: config.host, port: running.port };
    } catch (error) {
      state = { state: 'failed', error: describeError(error) };
      logger.error(`${listener.name} could not start`, { error: describeError(error) });
    }
  };
  const queue = (config: Config | undefined) => {
    chain = chain.then(() => apply(config));
  };

  queue(listener.configOf(settings.current()));
  const unsubscribe = settings.onChange((current) => queue(listener.configOf(current)));
  context.stops.add(async () => {
    unsubscribe();
    queue(undefined);
    await chain;
  });
  return { state: () => state, openSessions: () => running?.openSessions() ?? 0, settled: () => chain };
}
