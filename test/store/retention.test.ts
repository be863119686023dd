import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import {
  type Settings,
  type SettingsPatch,
  settingDefaults,
} from '../../server/contract/schemas/settingsSchema.js';
import { silentLogger } from '../../server/logging/logger.js';
import { type RetainedStores, startRetention } from '../../server/store/retention.js';

const day = 24 * 60 * 60_000;

/** Each store's `pruneOlderThan` cut-offs, in the order retention asked for them. */
function recordingStores() {
  const cuts = { messages: [] as number[], inbox: [] as number[], logs: [] as number[] };
  const store = (name: keyof typeof cuts) => ({
    pruneOlderThan: async (before: number) => {
      cuts[name].push(before);
      return 0;
    },
  });
  const stores: RetainedStores = { messages: store('messages'), inbox: store('inbox'), logs: store('logs') };
  return { stores, cuts };
}

/** One sweep (retention's first runs at once) with these settings over the defaults. */
async function sweepWith(patch: SettingsPatch) {
  const settings = structuredClone(settingDefaults) as Settings;
  for (const [group, keys] of Object.entries(patch)) Object.assign(settings[group as keyof Settings], keys);
  const clock = new ManualClock();
  const { stores, cuts } = recordingStores();
  const stop = startRetention({
    storage: stores,
    settings: { current: () => settings },
    clock,
    logger: silentLogger,
  });
  await clock.advance(0);
  stop();
  return { cuts, now: clock.now() };
}

/**
 * The inbox keeps its own lifetime, as the app's `incoming.lifetime_days` does
 * (capcom6/android-sms-gateway@9f0f77c007cda70312f5c25c0a36b1e49eaf8d0c, branch
 * issue/385-incoming-messages-cleanup, app/src/main/java/me/capcom/smsgateway/modules/incoming/
 * IncomingMessagesService.kt truncateLog: nothing without a lifetime, else older than it).
 */
describe('retention', () => {
  it('removes received messages older than incoming.lifetime_days', async () => {
    const { cuts, now } = await sweepWith({ incoming: { lifetime_days: 3 } });
    expect(cuts.inbox).toEqual([now - 3 * day]);
    expect(cuts.messages).toEqual([]);
  });

  it('keeps received messages while incoming.lifetime_days is unset, whatever the sent ones keep', async () => {
    const { cuts, now } = await sweepWith({ messages: { log_lifetime_days: 7 } });
    expect(cuts.messages).toEqual([now - 7 * day]);
    expect(cuts.inbox).toEqual([]);
  });

  it('removes log entries older than logs.lifetime_days (30 by default)', async () => {
    const { cuts, now } = await sweepWith({});
    expect(cuts.logs).toEqual([now - 30 * day]);
  });
});
