/**
 * The data of the private server's pushes, as server modules/events/events.go writes it (every
 * value a string), read as the app's event classes read it.
 */
import { describe, expect, it } from 'vitest';
import { cancelledMessageIdOf } from '../../server/fleet/pushData.js';

describe('MessageCancelled data', () => {
  it.each([
    ['{"messageId":"PyDmBQZZXYmyxMwED8Fzy"}', 'PyDmBQZZXYmyxMwED8Fzy'],
    ['{"messageId":""}', undefined],
    ['{"id":"PyDmBQZZXYmyxMwED8Fzy"}', undefined],
    ['null', undefined],
    ['not json', undefined],
  ])('reads %s as %s', (data, id) => {
    expect(cancelledMessageIdOf(data)).toBe(id);
  });
});
