export interface StorageOccupancyOptions {
  /** Slots of a memory (from AT+CPMS?), undefined while unknown. */
  capacityOf(memory: string): number | undefined;
  /** `memory` was full at some moment since the last call: the modem refused what came then. */
  wasFull(memory: string): void;
}

/**
 * Which slots of each message memory hold a message, as far as the driver knows: those the
 * modem indicated (+CMTI, +CDSI) or listed, less those deleted since. Messages the driver leaves
 * in place (a user's drafts) stay counted. When the known slots reach the capacity the memory is
 * full, and a status report the network brings then is refused: `wasFull` is called as the
 * memory fills, at each listing that finds it still full, and at the first deletion after, since
 * reports for messages sent meanwhile were refused too. AT+CPMS? counts alone come a health
 * round late and miss a SIM that filled and emptied in between.
 */
export class StorageOccupancy {
  private readonly slots = new Map<string, Set<number>>();
  private readonly full = new Set<string>();

  constructor(private readonly options: StorageOccupancyOptions) {}

  /** An indication (+CMTI/+CDSI) named a slot that now holds a message. */
  stored(memory: string, index: number): void {
    this.slotsOf(memory).add(index);
    this.check(memory, false);
  }

  /** A listing is the whole truth about a memory at that moment. */
  listed(memory: string, indexes: readonly number[]): void {
    this.slots.set(memory.toUpperCase(), new Set(indexes));
    this.check(memory, true);
  }

  /** The slot was deleted, or read empty. */
  emptied(memory: string, index: number): void {
    this.slotsOf(memory).delete(index);
    this.check(memory, false);
  }

  private slotsOf(memory: string): Set<number> {
    const name = memory.toUpperCase();
    let slots = this.slots.get(name);
    if (!slots) {
      slots = new Set();
      this.slots.set(name, slots);
    }
    return slots;
  }

  private check(memory: string, listing: boolean): void {
    const name = memory.toUpperCase();
    const capacity = this.options.capacityOf(name);
    const isFull = capacity !== undefined && this.slotsOf(name).size >= capacity;
    const wasFull = this.full.has(name);
    if (isFull) this.full.add(name);
    else this.full.delete(name);
    if (isFull !== wasFull || (isFull && listing)) this.options.wasFull(name);
  }
}
