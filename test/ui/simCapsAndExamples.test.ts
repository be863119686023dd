import { describe, expect, it } from 'vitest';
import type { SimPlanView } from '../../renderer/src/api/types.js';
import { numberExample } from '../../renderer/src/desk/numberExample.js';
import { cappedSims, capUseText } from '../../renderer/src/modems/simCaps.js';

type Use = SimPlanView['usage'][number];

function plan(sim: number, usage: Use[], whenCapped: SimPlanView['whenCapped'] = 'hold'): SimPlanView {
  return {
    deviceId: 'modem-a',
    sim,
    unit: 'messages',
    resetAt: '00:00',
    timeZone: 'UTC',
    whenCapped,
    usage,
  };
}

const day: Use = { cap: 'day', period: 'day', limit: 5, used: 5, resetsAt: '2026-12-08T00:00:00.000Z' };
const month: Use = {
  cap: 'month',
  period: 'month',
  limit: 5,
  used: 550,
  resetsAt: '2027-01-01T00:00:00.000Z',
};
const week: Use = { cap: 'week', period: 'week', limit: 100, used: 60, resetsAt: '2026-12-14T00:00:00.000Z' };

describe('capped SIMs on the modem card', () => {
  it('holds a SIM until the last of its used-up caps resets, and leaves out SIMs under every cap', () => {
    const capped = cappedSims([plan(2, [week]), plan(1, [day, month, week], 'spill')], 'modem-a');
    expect(capped).toEqual([
      { sim: 1, until: month.resetsAt, use: month, unit: 'messages', whenCapped: 'spill' },
    ]);
    expect(capUseText(month, 'messages')).toBe('550 of 5 messages per month');
    expect(capUseText({ ...day, cap: 'recipients' }, 'parts')).toBe('5 of 5 recipients per day');
    expect(cappedSims([plan(1, [day])], 'another-modem')).toEqual([]);
  });
});

describe('number examples', () => {
  it("writes a mobile number as the default country's people do, else internationally", () => {
    expect(numberExample('US')).toBe('(201) 555-0123');
    expect(numberExample('de')).toMatch(/^01\d{2,3} \d+$/);
    expect(numberExample(undefined)).toMatch(/^\+44 /);
  });
});
