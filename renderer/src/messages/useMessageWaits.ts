import { useEffect } from 'react';
import type { MessageWait } from '../../../server/contract/domain/holdReasons.js';
import type { MessageRecord } from '../api/types.js';
import { useApp } from '../appContext.js';
import { formatDateTime } from '../format/timeFormat.js';
import { useResource } from '../useResource.js';

/** How often the reasons are asked again: a limit lifts, working hours begin, a modem returns. */
const refreshMs = 10_000;

/** Why each queued message among `rows` waits, by id; read again while any is queued. */
export function useMessageWaits(rows: readonly MessageRecord[]): Record<string, MessageWait> {
  const { api } = useApp();
  const queued = rows.filter((message) => message.state === 'Pending').map((message) => message.id);
  const key = queued.join(',');
  const waits = useResource(
    () => (key === '' ? Promise.resolve({}) : api.messageWaits(key.split(','))),
    [api, key],
  );
  const { reload } = waits;
  useEffect(() => {
    if (key === '') return undefined;
    const timer = setInterval(reload, refreshMs);
    return () => clearInterval(timer);
  }, [reload, key]);
  return waits.data ?? {};
}

const reasonWords: Record<Exclude<MessageWait['reason'], 'routing'>, string> = {
  paused: 'sending is paused',
  scheduled: 'scheduled',
  'rate-limit': 'the sending limit',
  'send-interval': 'the pause between sends',
  'work-hours': 'outside working hours',
  'plan-cap': 'its SIM’s plan cap is reached',
  'no-modem': 'no modem can send it now',
  'no-mms-device': 'a phone that sends MMS (none is connected)',
  queued: 'its turn, behind messages being sent',
};

/** "Waits for the sending limit, until 14:05" — a routing hold in its own words. */
export function waitText(wait: MessageWait): string {
  const why = wait.reason === 'routing' ? wait.detail : reasonWords[wait.reason];
  const until = wait.nextAttemptAt === undefined ? '' : `, until ${formatDateTime(wait.nextAttemptAt)}`;
  return `Waits: ${why}${until}`;
}
