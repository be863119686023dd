import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../clock/clock.js';
import { toIsoWithOffset } from '../../clock/isoTime.js';
import { appOfCaller, type Caller } from '../../contract/domain/caller.js';
import { normalisePhoneNumber } from '../../contract/domain/phoneNumbers.js';
import {
  VerificationLimits,
  type VerificationRequest,
  type VerificationView,
} from '../../contract/schemas/verificationSchemas.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { SqliteVerificationStore, VerificationRecord } from '../../store/verificationStore.js';
import { QuotaExceededError } from '../auth/appQuotas.js';
import type { MessageService } from '../messages/messageService.js';

/** How often one number may be sent a code: a resend waits, and an hour holds only so many. */
export const ResendLimits = { minGapMs: 30_000, perHour: 5 } as const;
/** Wrong codes for one number in an hour, across its verifications, before checks are refused. */
export const MaxWrongPerNumberHour = 10;
const hourMs = 3_600_000;
const defaultTemplate = 'Your verification code is {code}';

export interface VerificationDependencies {
  store: SqliteVerificationStore;
  messages: Pick<MessageService, 'enqueue'>;
  clock: Clock;
  /** The per-install key codes are hashed with: a stolen database alone does not give them. */
  hashKey: Uint8Array;
  defaultCountry: () => string | undefined;
}

/**
 * Verification codes (docs/verification.md): a random code sent by SMS through the same queue,
 * quota and SIM plans as any message of the caller, kept only as its keyed hash, checked a
 * limited number of times before it expires. A verification belongs to the app that asked:
 * another app's is not found for it.
 */
export class VerificationService {
  /**
   * Numbers a start is under way for: its row is stored only after the SMS is queued, so a
   * second start in that time would pass the resend check the first one has not written yet.
   */
  private readonly starting = new Set<string>();

  constructor(private readonly deps: VerificationDependencies) {}

  async start(request: VerificationRequest, caller: Caller): Promise<VerificationView> {
    const now = this.deps.clock.now();
    const read = normalisePhoneNumber(request.phoneNumber, this.deps.defaultCountry());
    if (!read.ok) {
      throw new GatewayError(ErrorCode.ValidationFailed, `phoneNumber: ${read.message}`, {
        field: 'phoneNumber',
      });
    }
    const phoneNumber = read.e164;
    if (this.starting.has(phoneNumber)) {
      throw new QuotaExceededError(
        ResendLimits.minGapMs / 1000,
        `a code is being sent to ${phoneNumber}: wait before sending another`,
      );
    }
    this.checkResend(phoneNumber, now);
    this.starting.add(phoneNumber);
    try {
      return await this.send(request, phoneNumber, now, caller);
    } finally {
      this.starting.delete(phoneNumber);
    }
  }

  private async send(
    request: VerificationRequest,
    phoneNumber: string,
    now: number,
    caller: Caller,
  ): Promise<VerificationView> {
    const code = String(randomInt(0, 10 ** request.length)).padStart(request.length, '0');
    const id = randomUUID();
    const text = (request.template ?? defaultTemplate).replaceAll('{code}', code);
    const message = await this.deps.messages.enqueue(
      {
        // A code waits for no campaign (the highest priority that still keeps to the limits),
        // and is not sent once it could no longer be used.
        message: { textMessage: { text }, phoneNumbers: [phoneNumber], priority: 99, ttl: request.ttl },
        skipPhoneValidation: false,
        deviceActiveWithinHours: 0,
        purpose: 'verification',
      },
      caller,
    );
    const appId = appOfCaller(caller);
    const record: VerificationRecord = {
      id,
      ...(appId === undefined ? {} : { appId }),
      phoneNumber,
      codeHash: this.hash(id, code),
      createdAt: now,
      expiresAt: now + request.ttl * 1000,
      wrongAttempts: 0,
      status: 'pending',
      messageId: message.id,
    };
    await this.deps.store.insert(record);
    return viewOf(record);
  }

  get(id: string, caller: Caller): VerificationView {
    return viewOf(this.current(this.find(id, caller)));
  }

  /** Approved once, for the right code while pending; every other answer is denied. */
  async check(
    id: string,
    code: string,
    caller: Caller,
  ): Promise<VerificationView & { result: 'approved' | 'denied' }> {
    const record = this.current(this.find(id, caller));
    if (record.status === 'approved') {
      throw new GatewayError(
        ErrorCode.Conflict,
        `verification ${id} was approved already: a code works once`,
        {
          field: 'id',
        },
      );
    }
    if (record.status !== 'pending') return { ...viewOf(record), result: 'denied' };
    const now = this.deps.clock.now();
    const wrong = this.deps.store.wrongFor(record.phoneNumber, now - hourMs);
    if (wrong >= MaxWrongPerNumberHour) {
      throw new QuotaExceededError(
        hourMs / 1000,
        `too many wrong codes for ${record.phoneNumber} in the last hour: try again later`,
      );
    }
    if (this.matches(record, code)) {
      const approved = { ...record, status: 'approved' as const };
      await this.deps.store.update(id, approved.status, approved.wrongAttempts);
      return { ...viewOf(approved), result: 'approved' };
    }
    const wrongAttempts = record.wrongAttempts + 1;
    const denied: VerificationRecord = {
      ...record,
      wrongAttempts,
      status: wrongAttempts >= VerificationLimits.attempts ? 'max-attempts' : 'pending',
    };
    await this.deps.store.update(id, denied.status, denied.wrongAttempts);
    return { ...viewOf(denied), result: 'denied' };
  }

  private find(id: string, caller: Caller): VerificationRecord {
    const record = this.deps.store.get(id);
    if (!record || record.appId !== appOfCaller(caller)) {
      throw new GatewayError(ErrorCode.NotFound, `verification ${id} not found`, { field: 'id' });
    }
    return record;
  }

  /** A pending verification past its time reads as expired. */
  private current(record: VerificationRecord): VerificationRecord {
    return record.status === 'pending' && this.deps.clock.now() >= record.expiresAt
      ? { ...record, status: 'expired' }
      : record;
  }

  private checkResend(phoneNumber: string, now: number): void {
    const sent = this.deps.store.sentTo(phoneNumber, now - hourMs);
    if (sent.lastAt !== undefined && now - sent.lastAt < ResendLimits.minGapMs) {
      throw new QuotaExceededError(
        (ResendLimits.minGapMs - (now - sent.lastAt)) / 1000,
        `a code went to ${phoneNumber} moments ago: wait before sending another`,
      );
    }
    if (sent.firstAt !== undefined && sent.count >= ResendLimits.perHour) {
      throw new QuotaExceededError(
        (sent.firstAt + hourMs - now) / 1000,
        `${ResendLimits.perHour} codes went to ${phoneNumber} in the last hour: wait before sending another`,
      );
    }
  }

  private hash(id: string, code: string): string {
    return createHmac('sha256', this.deps.hashKey).update(`${id}:${code}`).digest('hex');
  }

  private matches(record: VerificationRecord, code: string): boolean {
    const given = Buffer.from(this.hash(record.id, code), 'hex');
    const kept = Buffer.from(record.codeHash, 'hex');
    return given.length === kept.length && timingSafeEqual(given, kept);
  }
}

function viewOf(record: VerificationRecord): VerificationView {
  return {
    id: record.id,
    phoneNumber: record.phoneNumber,
    channel: 'sms',
    status: record.status,
    attemptsLeft: record.status === 'pending' ? VerificationLimits.attempts - record.wrongAttempts : 0,
    messageId: record.messageId,
    createdAt: toIsoWithOffset(record.createdAt),
    expiresAt: toIsoWithOffset(record.expiresAt),
  };
}
