import { describe, expect, it } from 'vitest';
import { omitNulls } from '../../server/contract/domain/apiJson.js';

describe('omitNulls (every JSON answer)', () => {
  it('leaves out null fields at any depth, also in objects inside arrays, and keeps array items', () => {
    const answer = {
      id: 'm1',
      simNumber: null,
      recipients: [{ phoneNumber: '+15550001', error: null }, null],
      states: { Pending: '2026-11-26T12:00:00.000+00:00', Sent: null },
    };
    expect(JSON.stringify(omitNulls(answer))).toBe(
      '{"id":"m1","recipients":[{"phoneNumber":"+15550001"},null],"states":{"Pending":"2026-11-26T12:00:00.000+00:00"}}',
    );
    // The caller's object is left as it was.
    expect(answer.simNumber).toBeNull();
  });

  it('answers a value without null fields as it is, without copying it', () => {
    const page = [{ id: 'm1', error: undefined, states: { Pending: 'x' } }, { id: 'm2' }];
    expect(omitNulls(page)).toBe(page);
    expect(JSON.stringify(omitNulls(page))).toBe('[{"id":"m1","states":{"Pending":"x"}},{"id":"m2"}]');
  });

  it('does not look into objects that are not plain (their JSON is their own)', () => {
    const when = new Date(0);
    expect(omitNulls({ at: when, note: null })).toEqual({ at: when });
  });
});
