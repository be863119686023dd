import type { Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import type { MessageLifecycle } from '../messages/messageLifecycle.js';
import type { ModemPool } from '../modem/modemPool.js';
import type { IncomingSink } from '../modem/modemSession.js';
import { AndroidPhone, type AndroidPhoneOptions } from '../phone/androidPhone.js';
import { resolvePhoneHandOvers } from '../phone/handOverRecovery.js';
import { PhoneAddress } from '../phone/phoneAddress.js';
import { createPhoneLedger, type PhoneDocumentData } from '../phone/phoneLedger.js';
import type { Storage } from '../store/storage.js';

export type PhoneTiming = Pick<AndroidPhoneOptions, 'pollIntervalMs' | 'retryInitialMs' | 'requestTimeoutMs'>;

/**
 * The `--phone` members of the pool. Each has had its first round (an unreachable phone is
 * offline, not an error) and hand-overs a crash cut short are settled by asking the phones,
 * before the scheduler's own crash recovery runs.
 */
export async function startPhones(deps: {
  urls: string[];
  pool: ModemPool;
  storage: Storage;
  lifecycle: MessageLifecycle;
  receive: IncomingSink;
  clock: Clock;
  logger: Logger;
  timing?: PhoneTiming;
}): Promise<AndroidPhone[]> {
  if (deps.urls.length === 0) return [];
  const document = await deps.storage.openDocument<PhoneDocumentData>('phones', { inboxCursors: {} });
  const ledger = createPhoneLedger({
    repository: deps.storage.messages,
    lifecycle: deps.lifecycle,
    document,
    now: () => deps.clock.now(),
  });
  const phones: AndroidPhone[] = [];
  for (const url of deps.urls) {
    const phone = new AndroidPhone({
      address: PhoneAddress.parse(url),
      receive: deps.receive,
      ledger,
      clock: deps.clock,
      logger: deps.logger,
      ...deps.timing,
    });
    phones.push(phone);
    await deps.pool.addMember(phone);
  }
  await resolvePhoneHandOvers({
    repository: deps.storage.messages,
    lifecycle: deps.lifecycle,
    phones,
    logger: deps.logger.child('phones'),
  });
  return phones;
}
