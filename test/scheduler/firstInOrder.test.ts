import { describe, expect, it } from 'vitest';
import { firstInOrder, type ProcessingOrder } from '../../server/contract/domain/messageOrder.js';

const queue = [
  { id: 'old', priority: 0, sequence: 1 },
  { id: 'new', priority: 0, sequence: 2 },
  { id: 'high', priority: 50, sequence: 3 },
];

describe('the first message in queue order a modem may take', () => {
  it.each<[string, ProcessingOrder, (id: string) => boolean, string | undefined]>([
    ['the highest priority', 'LIFO', () => true, 'high'],
    ['the newest of equal priority under LIFO', 'LIFO', (id) => id !== 'high', 'new'],
    ['the oldest of equal priority under FIFO', 'FIFO', (id) => id !== 'high', 'old'],
    ['nothing when none may be taken', 'FIFO', () => false, undefined],
  ])('is %s', (_case, order, accept, expected) => {
    expect(firstInOrder(order, queue, (message) => accept(message.id))?.id).toBe(expected);
  });
});
