import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import type { MessageLifecycle } from '../messages/messageLifecycle.js';
import type { ModemPool } from '../modem/modemPool.js';
import type { IncomingSink } from '../modem/modemSession.js';
import { Adb } from '../phone/adb.js';
import { AndroidPhone, type AndroidPhoneOptions } from '../phone/androidPhone.js';
import { resolvePhoneHandOvers } from '../phone/handOverRecovery.js';
import { PhoneAddress } from '../phone/phoneAddress.js';
import { createPhoneLedger, type PhoneDocumentData } from '../phone/phoneLedger.js';
import { UsbConnection } from '../phone/usbConnection.js';
import type { Document } from '../store/documentStore.js';
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
  /** `--adb`: the adb program for phones given as adb://…@SERIAL. */
  adbPath: string;
  /** The gateway's port once it listens (a USB phone's webhooks come back through it). */
  gatewayPort: () => number | undefined;
}): Promise<AndroidPhone[]> {
  if (deps.urls.length === 0) return [];
  const document = await deps.storage.openDocument<PhoneDocumentData>('phones', {
    inboxCursors: {},
    hookTokens: {},
  });
  const ledger = createPhoneLedger({
    repository: deps.storage.messages,
    lifecycle: deps.lifecycle,
    document,
    now: () => deps.clock.now(),
  });
  const phones: AndroidPhone[] = [];
  const adb = new Adb(deps.adbPath);
  for (const url of deps.urls) {
    const address = PhoneAddress.parse(url);
    const options: AndroidPhoneOptions = {
      address,
      receive: deps.receive,
      ledger,
      clock: deps.clock,
      logger: deps.logger,
      ...deps.timing,
    };
    if (address.adbSerial) {
      options.usb = new UsbConnection(adb, address.adbSerial);
      options.webhooks = { token: await hookTokenOf(document, address.url), gatewayPort: deps.gatewayPort };
    }
    const phone = new AndroidPhone(options);
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

/** The secret path a phone's webhooks post to: random, kept in the 0600 phones document. */
async function hookTokenOf(document: Document<PhoneDocumentData>, key: string): Promise<string> {
  const known = document.data.hookTokens?.[key];
  if (known) return known;
  const token = randomBytes(24).toString('hex');
  await document.update((data) => {
    data.hookTokens = { ...data.hookTokens, [key]: token };
  });
  return token;
}
