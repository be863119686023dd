import { describe, expect, it } from 'vitest';
import { jobOfStoredReport } from '../../server/doors/fleet/reportTracker.js';
import { jobOfStoredDelivery } from '../../server/doors/smpp/smppDeliveries.js';
import { jobOfStoredMail } from '../../server/doors/smtp/mailForwarding.js';

/**
 * Collections kept by the versions before the one outbox, in the shapes those versions wrote
 * (git show 3fddc63:server/services/outbox/retryingOutbox.ts, …/smpp/smppDeliveries.ts,
 * …/smtp/mailForwarding.ts, …/fleet/reportOutbox.ts): each becomes a pending job of its kind
 * with its attempts so far, its payload as the way out now reads it.
 */
const at = Date.UTC(2026, 11, 1, 9);

describe('the outboxes of earlier versions', () => {
  it('turns a held deliver_sm receipt into an SMPP job in its login’s lane', () => {
    const job = jobOfStoredDelivery({
      id: 'receipt:msg-1',
      kind: 'receipt',
      owner: 'app:shop',
      fields: { source_addr: '15550001', short_message: 'aWQ6MQ==' },
      base64Fields: ['short_message'],
      createdAt: at,
      attempts: 3,
      nextAttemptAt: at + 40_000,
      lastError: 'deliver_sm_resp status 0x8',
    });
    expect(job).toEqual({
      id: 'smpp:receipt:msg-1',
      kind: 'smpp',
      lane: 'app:shop',
      payload: {
        type: 'receipt',
        owner: 'app:shop',
        fields: { source_addr: '15550001', short_message: 'aWQ6MQ==' },
        base64Fields: ['short_message'],
      },
      createdAt: at,
      state: 'pending',
      nextAttemptAt: at + 40_000,
      attemptCount: 3,
      attempts: [],
      lastError: 'deliver_sm_resp status 0x8',
    });
  });

  it('turns a kept mail into a mail job with its Message-ID', () => {
    const job = jobOfStoredMail({
      id: 'sms:in-1',
      subject: 'SMS from +15550001',
      text: 'Hi',
      replyTo: '+15550001@sms.gateway',
      messageId: '<sms-in-1@sms.gateway>',
      createdAt: at,
      attempts: 0,
      nextAttemptAt: at,
    });
    expect(job).toMatchObject({
      id: 'mail:sms:in-1',
      kind: 'mail',
      state: 'pending',
      attemptCount: 0,
      payload: {
        subject: 'SMS from +15550001',
        text: 'Hi',
        replyTo: '+15550001@sms.gateway',
        messageId: '<sms-in-1@sms.gateway>',
      },
    });
    expect(job).not.toHaveProperty('lastError');
  });

  it('turns a queued state report into a report job in the server’s one lane', () => {
    const report = { id: 'server-msg-1', state: 'Sent' as const, recipients: [], states: {} };
    const job = jobOfStoredReport({ id: '0000000000000007', report, queuedAt: at });
    expect(job).toMatchObject({
      id: 'fleet-report:0000000000000007',
      kind: 'fleet-report',
      lane: 'private-server',
      payload: report,
      createdAt: at,
      state: 'pending',
    });
  });
});
