import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MaxRecipients, MaxTextLength } from '../../server/contract/schemas/messageSchemas.js';
import { type HttpHarness, startHttpHarness } from '../support/httpHarness.js';

let harness: HttpHarness;
beforeAll(async () => {
  harness = await startHttpHarness();
});
afterAll(async () => {
  await harness.close();
});

const valid = { textMessage: { text: 'hi' }, phoneNumbers: ['+15551234567'] };

/** [case, body or query change, field the 400 must name first] */
const badBodies: [string, Record<string, unknown>, string][] = [
  ['phoneNumbers missing', { textMessage: { text: 'hi' } }, 'phoneNumbers'],
  ['phoneNumbers empty', { ...valid, phoneNumbers: [] }, 'phoneNumbers'],
  [
    `more than ${MaxRecipients} recipients`,
    {
      ...valid,
      phoneNumbers: Array.from(
        { length: MaxRecipients + 1 },
        (_, i) => `+1555000${String(i).padStart(4, '0')}`,
      ),
    },
    'phoneNumbers',
  ],
  ['a number that is not E.164', { ...valid, phoneNumbers: ['+15551234567', '5551234'] }, 'phoneNumbers[1]'],
  ['a number with a leading zero country code', { ...valid, phoneNumbers: ['+0123456'] }, 'phoneNumbers[0]'],
  ['the same number twice', { ...valid, phoneNumbers: ['+15551234567', '+15551234567'] }, 'phoneNumbers[1]'],
  ['no content at all', { phoneNumbers: ['+15551234567'] }, 'textMessage'],
  [
    'textMessage and dataMessage together',
    { ...valid, dataMessage: { data: 'AQ==', port: 1 } },
    'dataMessage',
  ],
  ['textMessage and message together', { ...valid, message: 'also' }, 'message'],
  ['an empty text', { ...valid, textMessage: { text: '' } }, 'textMessage.text'],
  [
    'a text longer than the limit',
    { ...valid, textMessage: { text: 'x'.repeat(MaxTextLength + 1) } },
    'textMessage.text',
  ],
  [
    'data that is not Base64',
    { phoneNumbers: ['+15551234567'], dataMessage: { data: 'not base64!', port: 1 } },
    'dataMessage.data',
  ],
  [
    'a port above 65535',
    { phoneNumbers: ['+15551234567'], dataMessage: { data: 'AQ==', port: 65_536 } },
    'dataMessage.port',
  ],
  [
    'a negative port',
    { phoneNumbers: ['+15551234567'], dataMessage: { data: 'AQ==', port: -1 } },
    'dataMessage.port',
  ],
  ['simNumber 0', { ...valid, simNumber: 0 }, 'simNumber'],
  ['simNumber 4', { ...valid, simNumber: 4 }, 'simNumber'],
  ['priority 128', { ...valid, priority: 128 }, 'priority'],
  ['priority -129', { ...valid, priority: -129 }, 'priority'],
  ['a fractional priority', { ...valid, priority: 1.5 }, 'priority'],
  ['ttl and validUntil together', { ...valid, ttl: 60, validUntil: '2027-01-01T00:00:00Z' }, 'validUntil'],
  ['validUntil in the past', { ...valid, validUntil: '2025-12-31T23:59:59.000Z' }, 'validUntil'],
  ['validUntil that is not a date', { ...valid, validUntil: 'tomorrow' }, 'validUntil'],
  ['validUntil without an offset', { ...valid, validUntil: '2027-01-01T00:00:00' }, 'validUntil'],
  ['scheduleAt that is not a date', { ...valid, scheduleAt: '12:00' }, 'scheduleAt'],
  ['ttl zero', { ...valid, ttl: 0 }, 'ttl'],
  ['an id longer than 36 characters', { ...valid, id: 'x'.repeat(37) }, 'id'],
  ['withDeliveryReport as a string', { ...valid, withDeliveryReport: 'yes' }, 'withDeliveryReport'],
];

describe('POST /messages validation', () => {
  it.each(badBodies)(
    'answers 400 naming the field for %s, and stores nothing',
    async (_case, body, field) => {
      const response = await harness.request('/messages', { method: 'POST', json: body });
      expect(response.status).toBe(400);
      const message = (response.body as { message: string }).message;
      expect(message.startsWith(`${field}: `)).toBe(true);
      expect(harness.storage.messages.count()).toBe(0);
    },
  );

  it.each([
    ['skipPhoneValidation=yes', 'skipPhoneValidation'],
    ['deviceActiveWithin=-1', 'deviceActiveWithin'],
    ['deviceActiveWithin=soon', 'deviceActiveWithin'],
  ])('answers 400 naming the query parameter for ?%s', async (query, field) => {
    const response = await harness.request(`/messages?${query}`, { method: 'POST', json: valid });
    expect(response.status).toBe(400);
    expect((response.body as { message: string }).message.startsWith(`${field}: `)).toBe(true);
    expect(harness.storage.messages.count()).toBe(0);
  });

  it('accepts validUntil with Z and with an offset, and a past scheduleAt', async () => {
    for (const [id, extra] of [
      ['z', { validUntil: '2026-01-02T00:00:00.000Z' }],
      ['offset', { validUntil: '2026-01-02T00:00:00+05:30' }],
      ['past-schedule', { scheduleAt: '2025-06-01T00:00:00Z' }],
    ] as const) {
      const response = await harness.request('/messages', {
        method: 'POST',
        json: { ...valid, id, ...extra },
      });
      expect(response.status).toBe(202);
    }
    expect(harness.storage.messages.get('offset')?.validUntil).toBe(Date.UTC(2026, 0, 1, 18, 30));
  });

  it('treats null optional fields as absent, as typed clients send them', async () => {
    const response = await harness.request('/messages', {
      method: 'POST',
      json: {
        ...valid,
        id: 'nulls',
        ttl: null,
        validUntil: null,
        simNumber: null,
        dataMessage: null,
        message: null,
      },
    });
    expect(response.status).toBe(202);
  });
});
