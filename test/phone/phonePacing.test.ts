import { describe, expect, it } from 'vitest';
import { signatureProblem, signWebhookBody } from '../../server/contract/domain/webhookSignature.js';
import { defaultPhonePacing, PhonePacer } from '../../server/devices/phone/phonePacing.js';

const MINUTE = 60_000;

describe('a phone’s pacing', () => {
  it('by default lets 30 hand-overs through per 30 minutes, then waits for the oldest to leave the window', () => {
    const pacer = new PhonePacer(defaultPhonePacing);
    const start = 1_000_000;
    for (let index = 0; index < 30; index++) {
      expect(pacer.availableAt(start + index * 1_000, 0)).toBe(start + index * 1_000);
      pacer.record(start + index * 1_000);
    }
    expect(pacer.availableAt(start + 60_000, 0)).toBe(start + 30 * MINUTE);
  });

  it('waits the interval after the last hand-over', () => {
    const pacer = new PhonePacer({ ...defaultPhonePacing, minIntervalSeconds: 20 });
    pacer.record(5_000);
    expect(pacer.availableAt(6_000, 0)).toBe(25_000);
  });

  it('takes nothing while the phone holds maxInFlight, whatever the time', () => {
    const pacer = new PhonePacer({ ...defaultPhonePacing, maxInFlight: 3 });
    expect(pacer.availableAt(0, 2)).toBe(0);
    expect(pacer.availableAt(0, 3)).toBe(Number.POSITIVE_INFINITY);
  });

  it('counts hand-overs from before a restart', () => {
    const pacer = new PhonePacer({ ...defaultPhonePacing, maxPerPeriod: 2, periodMinutes: 10 });
    pacer.restore([3 * MINUTE, 1 * MINUTE]);
    expect(pacer.availableAt(5 * MINUTE, 0)).toBe(11 * MINUTE);
  });

  it('has no cap with maxPerPeriod null', () => {
    const pacer = new PhonePacer({ ...defaultPhonePacing, maxPerPeriod: null });
    for (let index = 0; index < 100; index++) pacer.record(index);
    expect(pacer.availableAt(100, 0)).toBe(100);
  });
});

describe('the app’s webhook signature (plugins/PayloadSingingPlugin.kt)', () => {
  const body = '{"event":"sms:received"}';
  const key = 'Ab3dE6gH';
  // HMAC-SHA256 of body + "1764130000" with the key, computed apart from our code (Python hmac).
  const vector = '74dca13d8f893b248e21adb19dcaa96de2812279842aa8545c1259250e2dcbbc';

  it('is the hex HMAC-SHA256 of the body followed by the timestamp', () => {
    expect(signWebhookBody(body, '1764130000', key)).toBe(vector);
  });

  it.each([
    ['a fresh post signed with the key', vector, '1764130000', 1_764_130_000_000 + 299_000, undefined],
    ['an upper-case signature', vector.toUpperCase(), '1764130000', 1_764_130_000_000, undefined],
    ['a post without headers', undefined, undefined, 1_764_130_000_000, 'unsigned'],
    ['a post signed more than 5 minutes ago', vector, '1764130000', 1_764_130_000_000 + 301_000, 'stale'],
    ['a post from 5 minutes ahead and more', vector, '1764130000', 1_764_130_000_000 - 301_000, 'stale'],
    ['a timestamp that is no number', vector, '17641x0000', 1_764_130_000_000, 'stale'],
    [
      'another key’s signature',
      signWebhookBody(body, '1764130000', 'other'),
      '1764130000',
      1_764_130_000_000,
      'mismatch',
    ],
    [
      'a signature of another body',
      signWebhookBody('{}', '1764130000', key),
      '1764130000',
      1_764_130_000_000,
      'mismatch',
    ],
  ])('judges %s', (_case, signature, timestamp, nowMs, problem) => {
    expect(signatureProblem({ signingKey: key, body, signature, timestamp, nowMs })).toBe(problem);
  });
});
