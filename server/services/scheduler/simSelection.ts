import type { MessageRecord } from '../../contract/domain/message.js';

export type SimSelectionMode = 'OSDefault' | 'RoundRobin' | 'Random';

/**
 * Which SIM slot (1-based) sends a message, among the slots routing lets carry it (`slots`,
 * lowest first; undefined: any slot of the modem). The client's `simNumber` wins (the API
 * checked it, routing kept the message off a modem where that slot may not carry it);
 * otherwise `messages.sim_selection_mode`: OSDefault is the modem's default, slot 1, or the
 * lowest slot allowed; RoundRobin rotates through the modem's slots, one counter per modem,
 * skipping those not allowed; Random picks any slot allowed.
 */
export class SimSelector {
  /** deviceId → slot index (0-based) the next round-robin pick uses. */
  private readonly nextSlot = new Map<string, number>();

  constructor(private readonly random: () => number) {}

  choose(
    message: Pick<MessageRecord, 'simNumber'>,
    modem: { deviceId: string; simSlots: number },
    mode: SimSelectionMode,
    slots?: readonly number[],
  ): number {
    if (message.simNumber !== undefined) return message.simNumber;
    const count = Math.max(1, Math.floor(modem.simSlots));
    const allowed = (slot: number) => slots === undefined || slots.includes(slot);
    const first = slots?.[0] ?? 1;
    switch (mode) {
      case 'OSDefault':
        return first;
      case 'RoundRobin': {
        const start = this.nextSlot.get(modem.deviceId) ?? 0;
        for (let step = 0; step < count; step++) {
          const index = (start + step) % count;
          if (!allowed(index + 1)) continue;
          this.nextSlot.set(modem.deviceId, index + 1);
          return index + 1;
        }
        return first;
      }
      case 'Random': {
        const choices = slots ?? Array.from({ length: count }, (_, index) => index + 1);
        return choices[Math.min(choices.length - 1, Math.floor(this.random() * choices.length))] ?? first;
      }
    }
  }
}
