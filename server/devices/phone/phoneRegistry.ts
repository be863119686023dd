import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock/clock.js';
import type { HeldMessageOutcomes } from '../../contract/domain/heldMessages.js';
import type { WebhookEvent } from '../../contract/domain/webhookEvents.js';
import type { UsbPhoneListing } from '../../contract/schemas/phoneSchemas.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { Document } from '../../store/documentStore.js';
import type { Storage } from '../../store/storage.js';
import type { ModemPool } from '../pool/modemPool.js';
import type { IncomingSink } from '../pool/sinks.js';
import { Adb, adbAdvice } from './adb.js';
import { AndroidPhone, type AndroidPhoneOptions } from './androidPhone.js';
import { PhoneAddress } from './phoneAddress.js';
import { createPhoneLedger, type PhoneDocumentData } from './phoneLedger.js';
import { defaultPhonePacing, type PhonePacingSettings } from './phonePacing.js';
import { UsbConnection } from './usbConnection.js';

export type PhoneTiming = Pick<AndroidPhoneOptions, 'pollIntervalMs' | 'retryInitialMs' | 'requestTimeoutMs'>;

/** A phone the user adds: on the network by its app's address, or on USB by its adb serial. */
export interface NewPhone {
  url?: string;
  serial?: string;
  username: string;
  password: string;
  pacing?: PhonePacingSettings;
}

export interface PhoneRegistry {
  /** Every phone member, `--phone` ones and those added on the Modems screen. */
  readonly phones: AndroidPhone[];
  /** Adds a phone and keeps it (with its password, in the 0600 phones document) for next starts. */
  add(phone: NewPhone): Promise<AndroidPhone>;
  /** New pacing for a phone of the pool, kept for next starts; NotFound for any other device. */
  setPacing(deviceId: string, pacing: PhonePacingSettings): Promise<AndroidPhone>;
  /** The phone member with this device id; NotFound otherwise. */
  phone(deviceId: string): AndroidPhone;
  /** What adb lists, with advice for phones it cannot use. */
  usbPhones(): Promise<UsbPhoneListing>;
  /**
   * The gateway's API listens on `port`: a USB phone's webhooks come back through it, so each
   * phone registers them now rather than at its next round.
   */
  listening(port: number): void;
}

/**
 * The phone members of the pool: `--phone` ones and the ones added before. Each has had its
 * first round (an unreachable phone is offline, not an error). The phones are the lifecycle's
 * holders of what they were handed: the scheduler's crash recovery leaves those messages to them
 * (they ask the phone, never send again), and our cancel of one becomes the app's DELETE.
 */
export async function startPhones(deps: {
  urls: string[];
  pool: ModemPool;
  storage: Storage;
  lifecycle: HeldMessageOutcomes;
  receive: IncomingSink;
  clock: Clock;
  logger: Logger;
  /**
   * A phone's `mms:received` and `mms:downloaded` go out as our webhook events of those names:
   * resolves once they are durable, and the phone's webhook is answered after that.
   */
  announceFact: (fact: WebhookEvent) => Promise<void>;
  timing?: PhoneTiming;
  /** `--adb`: the adb program for phones given as adb://…@SERIAL. */
  adbPath: string;
}): Promise<PhoneRegistry> {
  /** The API's port, told by `listening` once it listens. */
  let gatewayPort: number | undefined;
  const document = await deps.storage.openDocument<PhoneDocumentData>('phones', {
    inboxCursors: {},
    hookTokens: {},
    signingKeys: {},
    pacing: {},
    added: [],
  });
  const ledger = createPhoneLedger({
    repository: deps.storage.messages,
    lifecycle: deps.lifecycle,
    document,
    now: () => deps.clock.now(),
  });
  const adb = new Adb(deps.adbPath);
  const phones: AndroidPhone[] = [];
  const phoneOf = (deviceId: string): AndroidPhone | undefined =>
    phones.find((phone) => phone.deviceId === deviceId);
  deps.lifecycle.addHolder({
    holds: (message) => message.deviceId !== undefined && phoneOf(message.deviceId) !== undefined,
    cancel: async (message) => {
      const phone = message.deviceId === undefined ? undefined : phoneOf(message.deviceId);
      if (phone) await phone.cancel(message);
    },
  });
  const start = async (address: PhoneAddress): Promise<AndroidPhone> => {
    const known = phones.find((phone) => phone.port === address.url);
    if (known) return known;
    const options: AndroidPhoneOptions = {
      address,
      receive: deps.receive,
      ledger,
      clock: deps.clock,
      logger: deps.logger,
      pacing: document.data.pacing?.[address.url] ?? defaultPhonePacing,
      publish: (event, payload) => {
        const deviceId = phones.find((phone) => phone.port === address.url)?.deviceId ?? '';
        return deps.announceFact({ event, deviceId, payload });
      },
      ...deps.timing,
    };
    if (address.adbSerial) {
      options.usb = new UsbConnection(adb, address.adbSerial);
      options.webhooks = {
        token: await secretOf(document, 'hookTokens', address.url),
        signingKey: await secretOf(document, 'signingKeys', address.url),
        gatewayPort: () => gatewayPort,
      };
    }
    const phone = new AndroidPhone(options);
    phones.push(phone);
    await deps.pool.addMember(phone);
    return phone;
  };
  /** A phone not added before: its first round tells whether the app takes the login. */
  const startChecked = async (address: PhoneAddress): Promise<AndroidPhone> => {
    const member = await start(address);
    if (!member.loginRefused) return member;
    await deps.pool.forget(member.deviceId);
    throw loginRefused('');
  };
  /** A phone added again: the new login is checked where the phone is reached now. */
  const changeLogin = async (member: AndroidPhone, username: string, password: string) => {
    const verdict = await member.checkLogin(username, password);
    if (verdict === 'refused') throw loginRefused('; the one kept before stays');
    if (verdict === 'unanswered') {
      throw new GatewayError(
        ErrorCode.ModemUnavailable,
        `the phone at ${member.port} does not answer, so the new password cannot be checked; the one kept before stays`,
      );
    }
    member.adoptLogin(username, password);
    return member;
  };
  const stored = (document.data.added ?? []).map((entry) =>
    PhoneAddress.fromParts(entry.address, entry.username, entry.password),
  );
  for (const address of [...deps.urls.map((url) => PhoneAddress.parse(url)), ...stored]) await start(address);
  // DELETE /devices/{id} of a phone: it leaves the registry and the kept list (its stop removed
  // our webhooks from the phone).
  deps.pool.onChange((deviceId) => {
    const index = phones.findIndex((phone) => phone.deviceId === deviceId);
    const phone = phones[index];
    if (!phone || deps.pool.get(deviceId)) return;
    phones.splice(index, 1);
    void document
      .update((data) => {
        data.added = (data.added ?? []).filter((entry) => entry.address !== phone.port);
        if (data.hookTokens) delete data.hookTokens[phone.port];
        if (data.signingKeys) delete data.signingKeys[phone.port];
        if (data.pacing) delete data.pacing[phone.port];
        delete data.inboxCursors[deviceId];
      })
      .catch((error: unknown) => deps.logger.warn('could not forget the phone', { deviceId, error }));
  });
  const phone = (deviceId: string): AndroidPhone => {
    const found = phoneOf(deviceId);
    if (!found)
      throw new GatewayError(ErrorCode.NotFound, `no Android phone ${deviceId}`, { field: 'deviceId' });
    return found;
  };
  return {
    phones,
    phone,
    async setPacing(deviceId, pacing) {
      const member = phone(deviceId);
      await document.update((data) => {
        data.pacing = { ...data.pacing, [member.port]: pacing };
      });
      member.setPacing(pacing);
      return member;
    },
    async add(phone) {
      const where = phone.serial ? `adb://${phone.serial}` : phone.url;
      if (!where)
        throw new GatewayError(ErrorCode.ValidationFailed, 'give the phone address or its USB serial', {
          field: 'url',
        });
      const address = PhoneAddress.fromParts(where, phone.username, phone.password);
      // The app is asked before anything is kept: a wrong password never replaces one
      // that works, and a phone that refuses the login is not added.
      const known = phones.find((member) => member.port === address.url);
      const member = known
        ? await changeLogin(known, phone.username, phone.password)
        : await startChecked(address);
      const { pacing } = phone;
      await document.update((data) => {
        data.added = [
          ...(data.added ?? []).filter((entry) => entry.address !== address.url),
          { address: address.url, username: phone.username, password: phone.password },
        ];
        if (pacing) data.pacing = { ...data.pacing, [address.url]: pacing };
      });
      if (pacing) member.setPacing(pacing);
      if (gatewayPort !== undefined) void member.pollNow();
      return member;
    },
    listening(port) {
      gatewayPort = port;
      for (const phone of phones) void phone.pollNow();
    },
    async usbPhones() {
      try {
        const listed = await adb.devices();
        return {
          adb: 'found',
          phones: listed.map((device) => {
            const advice = adbAdvice(device.state);
            return {
              serial: device.serial,
              state: device.state,
              ...(device.model ? { model: device.model.replace(/_/g, ' ') } : {}),
              ...(advice ? { advice } : {}),
              inUse: phones.some((member) => member.port === `adb://${device.serial}`),
            };
          }),
        };
      } catch (error) {
        return {
          adb: 'unavailable',
          detail: error instanceof Error ? error.message : String(error),
          phones: [],
        };
      }
    },
  };
}

/**
 * A phone's webhook secrets, random and kept in the 0600 phones document: the path its posts go
 * to (`hookTokens`) and the key its app signs them with (`signingKeys`).
 */
async function secretOf(
  document: Document<PhoneDocumentData>,
  kind: 'hookTokens' | 'signingKeys',
  address: string,
): Promise<string> {
  const known = document.data[kind]?.[address];
  if (known) return known;
  const secret = randomBytes(24).toString('hex');
  await document.update((data) => {
    data[kind] = { ...data[kind], [address]: secret };
  });
  return secret;
}

/** 400 naming `password`: the app answered 401 to the user and password given. */
function loginRefused(more: string): GatewayError {
  return new GatewayError(
    ErrorCode.ValidationFailed,
    `password: the phone refused the user or password; check them in the app's Local server settings${more}`,
    { field: 'password' },
  );
}
