import { toIsoWithOffset } from '../../clock/isoTime.js';
import { type MessageRecord, type MessageState, MessageStates } from './message.js';

/** The times a message reached its states, as the API shows them. */
export function stateTimes(reached: MessageRecord['states']): Partial<Record<MessageState, string>> {
  const states: Partial<Record<MessageState, string>> = {};
  for (const state of MessageStates) {
    const reachedAt = reached[state];
    if (reachedAt !== undefined) states[state] = toIsoWithOffset(reachedAt);
  }
  return states;
}
