import type { MessageRecord } from '../domain/message.js';

export type SimSelectionMode = 'OSDefault' | 'RoundRobin' | 'Random';

/**
 * Which SIM slot (1-based) sends a message. The client's `simNumber` wins (the API checked it);
 * otherwise `messages.sim_selection_mode`: OSDefault is the modem's default, slot 1; RoundRobin
 * rotates through the modem's slots, one counter per modem; Random picks any slot.
 */
export class SimSelector {
  /** deviceId → slot index (0-based) the next round-robin pick uses. */
  private readonly nextSlot = new Map<string, number>();

  constructor(private readonly random: () => number) {}

  choose(
    message: Pick<MessageRecord, 'simNumber'>,
    modem: { deviceId: string; simSlots: number },
    mode: SimSelectionMode,
  ): number {
    if (message.simNumber !== undefined) return message.simNumber;
    const slots = Math.max(1, Math.floor(modem.simSlots));
    switch (mode) {
      case 'OSDefault':
        return 1;
      case 'RoundRobin': {
        const index = (this.nextSlot.get(modem.deviceId) ?? 0) % slots;
        this.nextSlot.set(modem.deviceId, index + 1);
        return index + 1;
      }
      case 'Random':
        return Math.min(slots, Math.floor(this.random() * slots) + 1);
    }
  }
}
