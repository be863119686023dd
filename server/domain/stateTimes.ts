import { toIsoWithOffset } from '../clock/isoTime.js';
import { type MessageRecord, type MessageState, MessageStates } from './message.js';

/**
 * A stored view (`storedMessageView`) with the message's state times, as `toMessageView` places
 * them: before `priority`, which every view written since schema step 11 has; at the end of a
 * view that lacks it. `,"priority":` cannot stand inside a string member: JSON escapes its quotes.
 */
export function withStateTimes(storedView: string, states: MessageRecord['states']): string {
  const member = `"states":${JSON.stringify(stateTimes(states))}`;
  const before = storedView.indexOf(',"priority":');
  return before === -1
    ? `${storedView.slice(0, -1)},${member}}`
    : `${storedView.slice(0, before)},${member}${storedView.slice(before)}`;
}

/** The times a message reached its states, as the API shows them. */
export function stateTimes(reached: MessageRecord['states']): Partial<Record<MessageState, string>> {
  const states: Partial<Record<MessageState, string>> = {};
  for (const state of MessageStates) {
    const reachedAt = reached[state];
    if (reachedAt !== undefined) states[state] = toIsoWithOffset(reachedAt);
  }
  return states;
}
