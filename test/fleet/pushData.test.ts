/**
 * The data of the private server's pushes, as server modules/events/events.go writes it (every
 * value a string, times in Go's time.RFC3339), read as the app's event classes read it.
 */
import { describe, expect, it } from 'vitest';
import { cancelledMessageIdOf, exportRequestOf } from '../../server/doors/fleet/pushData.js';

const since = Date.parse('2026-07-01T00:00:00Z');
const until = Date.parse('2026-07-02T00:00:00Z');
const period = { since: '2026-07-01T00:00:00Z', until: '2026-07-02T00:00:00Z' };

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

describe('MessagesExportRequested data', () => {
  it.each([
    ['no delivery fields: webhooks, as the app', {}, 'Individual'],
    ['triggerWebhooks "false"', { triggerWebhooks: 'false' }, 'Disabled'],
    ['triggerWebhooks "true"', { triggerWebhooks: 'true' }, 'Individual'],
    ['webhookDelivery over triggerWebhooks', { webhookDelivery: 'Batch', triggerWebhooks: 'true' }, 'Batch'],
    ['webhookDelivery Disabled', { webhookDelivery: 'Disabled', triggerWebhooks: 'false' }, 'Disabled'],
    [
      'an unknown webhookDelivery falls back',
      { webhookDelivery: 'Later', triggerWebhooks: 'false' },
      'Disabled',
    ],
    ['SMS among the types', { messageTypes: 'MMS,SMS' }, 'Individual'],
  ])('%s', (_name, fields, mode) => {
    expect(exportRequestOf(JSON.stringify({ ...period, ...fields }))).toEqual({
      period: { since, until },
      mode,
    });
  });

  it.each([
    ['MMS only', JSON.stringify({ ...period, messageTypes: 'MMS' })],
    ['no until', JSON.stringify({ since: period.since })],
    ['a since that is no time', JSON.stringify({ ...period, since: 'yesterday' })],
    ['no data', 'null'],
    ['data that is not JSON', '{'],
  ])('asks for nothing with %s', (_name, data) => {
    expect(exportRequestOf(data)).toEqual({ refused: expect.any(String) });
  });
});
