/**
 * Deterministic traffic for the load-style acceptance suites: outgoing messages of mixed
 * lengths and alphabets (each to its own number, so every PDU can be traced to its message)
 * and incoming messages, some of them multipart with parts delivered out of order.
 */
import { planText } from '../../../server/contract/pdu/index.js';
import type { AcceptedPdu } from '../../../server/devices/simulator/simulatedModem.js';

export interface PlannedMessage {
  phoneNumber: string;
  text: string;
  withDeliveryReport: boolean;
  /** Parts the codec splits the text into (TS 23.040 §9.2.3.24.1 concatenation). */
  parts: number;
}

export interface PlannedIncoming {
  sender: string;
  text: string;
  /** Order the network delivers the parts in (zero-based); absent: in order. */
  partOrder?: number[];
}

const gsmSentence = 'The quick brown fox jumps over the lazy dog; ';
const unicodeSentence = 'Grüße aus Łódź — 東京 и Київ 🙂 ';

function repeatTo(sentence: string, length: number): string {
  // Cut on a code point so a surrogate pair is never halved.
  return Array.from(sentence.repeat(Math.ceil(length / sentence.length) + 1))
    .slice(0, length)
    .join('');
}

/** Message `index` of a run: one in four GSM multipart, one in four Unicode multipart, the rest short. */
export function plannedMessage(index: number, numberPrefix: string): PlannedMessage {
  const phoneNumber = `${numberPrefix}${String(index).padStart(4, '0')}`;
  const shapes = [
    () => `#${index} ${repeatTo(gsmSentence, 200)}`,
    () => `#${index} ${repeatTo(unicodeSentence, 90)}`,
    () => `#${index} short and plain`,
    () => `#${index} ${repeatTo(unicodeSentence, 20)}`,
  ];
  const text = (shapes[index % shapes.length] ?? (() => `#${index}`))();
  return { phoneNumber, text, withDeliveryReport: index % 5 === 0, parts: planText(text).parts };
}

export function plannedIncoming(index: number, senderPrefix: string): PlannedIncoming {
  const sender = `${senderPrefix}${String(index).padStart(4, '0')}`;
  if (index % 5 === 0) {
    // Three GSM 7-bit parts, delivered last part first.
    return { sender, text: `in#${index} ${repeatTo(gsmSentence, 400)}`, partOrder: [2, 0, 1] };
  }
  if (index % 5 === 1) {
    // Two UCS-2 parts, delivered in reverse.
    return { sender, text: `in#${index} ${repeatTo(unicodeSentence, 100)}`, partOrder: [1, 0] };
  }
  return { sender, text: `in#${index} ${index % 2 === 0 ? 'hello' : repeatTo(unicodeSentence, 12)}` };
}

/** How many times each (recipient, part) was accepted by the simulators, keyed "number#part". */
export function partCounts(accepted: readonly AcceptedPdu[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const pdu of accepted) {
    const key = `${pdu.decoded.recipient.number}#${pdu.decoded.concatenation?.partNumber ?? 1}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Runs `work` over `items` with at most `concurrency` in flight; results keep the item order. */
export async function inParallel<Item, Result>(
  items: readonly Item[],
  concurrency: number,
  work: (item: Item, index: number) => Promise<Result>,
): Promise<Result[]> {
  const results: Result[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as Item, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return results;
}
