import { describe, expect, it } from 'vitest';
import { openRoutingBook, type RoutingDocumentData } from '../../server/services/routing/routingBook.js';

/** The `routing` document as a test holds it: what `update` writes is what a restart reads. */
function document(data: RoutingDocumentData) {
  return {
    data,
    async update(mutator: (current: RoutingDocumentData) => void) {
      mutator(data);
    },
  };
}

describe('the routing book', () => {
  it('reads rules stored with modem ids only, and writes a whole modem back as its id', async () => {
    const stored = document({
      rules: [{ id: 'de', prefix: '+49', deviceIds: ['modem-a'], fallbackDeviceIds: ['modem-b'] }],
    });
    const book = openRoutingBook(stored);
    expect(book.list()).toEqual([
      {
        id: 'de',
        prefix: '+49',
        deviceIds: [{ deviceId: 'modem-a' }],
        fallbackDeviceIds: [{ deviceId: 'modem-b' }],
      },
    ]);

    await book.replace([
      {
        prefix: '+1',
        deviceIds: [{ deviceId: 'phone', simNumber: 2 }, { deviceId: 'modem-a' }],
        fallbackDeviceIds: [],
      },
    ]);
    expect(stored.data.rules).toMatchObject([
      { prefix: '+1', deviceIds: [{ deviceId: 'phone', simNumber: 2 }, 'modem-a'], fallbackDeviceIds: [] },
    ]);
    expect(openRoutingBook(stored).list()).toEqual(book.list());
  });
});
