import { describe, expect, it } from 'vitest';
import { phoneDetails, phoneSimCards } from '../../server/devices/phone/phoneDetails.js';
import { incomingKey } from '../../server/devices/phone/phoneInbox.js';
import { phoneSendRequestOf } from '../../server/devices/phone/phoneMessages.js';

describe('the key an incoming SMS is stored once under', () => {
  it.each([
    ['text:-1234', 'fffffb2e'],
    ['fffffb2e', 'fffffb2e'],
    ['FFFFFB2E', 'fffffb2e'],
    ['data:42', '2a'],
    ['text:0', '0'],
    ['not-a-hash', 'not-a-hash'],
  ])('names %s as %s, whether the inbox or a webhook brought it', (appId, key) => {
    expect(incomingKey(appId)).toBe(key);
  });
});

describe('a hand-over as the app’s POST /messages body', () => {
  const base = {
    messageId: 'm1',
    recipient: '+15550001',
    simNumber: 2,
    requestStatusReport: true,
  };

  it.each([
    [
      'a text',
      { ...base, content: { kind: 'text' as const, text: 'hi' } },
      { textMessage: { text: 'hi' }, phoneNumbers: ['+15550001'], isEncrypted: false },
    ],
    [
      'a data SMS',
      { ...base, content: { kind: 'data' as const, data: 'AQI=', port: 53739 } },
      { dataMessage: { data: 'AQI=', port: 53739 }, phoneNumbers: ['+15550001'], isEncrypted: false },
    ],
    [
      'an encrypted text, number and content as they came',
      {
        ...base,
        content: { kind: 'text' as const, text: 'plain' },
        encrypted: { recipient: 'sealed-number', content: { kind: 'text' as const, text: 'sealed' } },
      },
      { textMessage: { text: 'sealed' }, phoneNumbers: ['sealed-number'], isEncrypted: true },
    ],
  ])('carries %s', (_case, request, expected) => {
    expect(phoneSendRequestOf('m1-1', request)).toEqual({
      id: 'm1-1',
      simNumber: 2,
      withDeliveryReport: true,
      ...expected,
    });
  });

  it('writes the expiry as an ISO date', () => {
    const body = phoneSendRequestOf('m1', {
      ...base,
      content: { kind: 'text', text: 'hi' },
      validUntil: Date.UTC(2026, 10, 26, 12),
    });
    expect(body.validUntil).toBe('2026-11-26T12:00:00.000Z');
  });
});

/** modules/health/domain/CheckResult.kt: only observedValue matters here. */
function check(observedValue: number) {
  return { status: 'pass', observedValue, observedUnit: '', description: '' };
}

describe('how a phone shows in the pool', () => {
  it('splits the app’s device name into maker and model and reads the health checks', () => {
    const details = phoneDetails({
      port: 'http://10.0.0.5:8080',
      status: 'ready',
      device: {
        id: 'd1',
        name: 'Google/Pixel 7',
        simCards: [{ slotIndex: 0, simNumber: 1, carrierName: 'Tele' }],
      },
      health: {
        status: 'pass',
        version: '1.2.3',
        checks: {
          'battery:level': check(80),
          'battery:charging': check(3),
          'connection:status': check(0),
        },
      },
    });
    expect(details).toMatchObject({
      kind: 'android',
      manufacturer: 'Google',
      model: 'Pixel 7',
      operator: 'Tele',
      phone: { batteryPercent: 80, charging: true, internet: false, appVersion: '1.2.3' },
    });
  });

  it('shows SIM 1 in slot 0 before the phone answered', () => {
    expect(phoneSimCards(undefined)).toEqual([{ slotIndex: 0, simNumber: 1 }]);
  });

  it('lists every SIM a dual-SIM phone reports', () => {
    const device = {
      id: 'p',
      name: 'Google/Pixel 7',
      simCards: [
        { slotIndex: 0, simNumber: 1, carrierName: 'Tele' },
        { slotIndex: 1, simNumber: 2, phoneNumber: '+4915112345678' },
      ],
    };
    expect(phoneSimCards(device)).toEqual([
      { slotIndex: 0, simNumber: 1, carrierName: 'Tele' },
      { slotIndex: 1, simNumber: 2, phoneNumber: '+4915112345678' },
    ]);
  });
});
