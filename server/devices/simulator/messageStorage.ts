/**
 * The SIM's message store ("SM") that AT+CPMS, +CMGR, +CMGL and +CMGD work on.
 *
 * - TS 27.005 §3.1 <stat> in PDU mode: 0 received unread, 1 received read, 2 stored unsent,
 *   3 stored sent, 4 all (listing only).
 * - §3.4.2/§3.4.3: reading or listing a "received unread" message marks it read; the reply
 *   still shows the status it had before.
 * - Indexes start at 0 here, as on Huawei modems (other makers start at 1): a driver that
 *   treats index 0 as "none" loses a message against this simulator.
 */
export const MessageStatus = {
  ReceivedUnread: 0,
  ReceivedRead: 1,
  StoredUnsent: 2,
  StoredSent: 3,
  All: 4,
} as const;

export interface StoredMessage {
  index: number;
  status: number;
  /** The PDU as the modem shows it: SMSC address field, then the TPDU. */
  hex: string;
  /** TPDU length in octets (without the SMSC field): the <length> of +CMGR/+CMGL. */
  tpduLength: number;
}

/** TS 27.005 §3.5.4 <delflag>: which messages `AT+CMGD=<index>,<delflag>` removes besides <index>. */
const statusesDeletedByFlag: Record<number, readonly number[]> = {
  1: [MessageStatus.ReceivedRead],
  2: [MessageStatus.ReceivedRead, MessageStatus.StoredSent],
  3: [MessageStatus.ReceivedRead, MessageStatus.StoredSent, MessageStatus.StoredUnsent],
  4: [
    MessageStatus.ReceivedUnread,
    MessageStatus.ReceivedRead,
    MessageStatus.StoredSent,
    MessageStatus.StoredUnsent,
  ],
};

export class MessageStorage {
  private readonly slots: (StoredMessage | undefined)[];

  constructor(readonly capacity: number) {
    this.slots = Array.from({ length: capacity }, () => undefined);
  }

  get used(): number {
    return this.slots.filter((slot) => slot !== undefined).length;
  }

  isValidIndex(index: number): boolean {
    return Number.isInteger(index) && index >= 0 && index < this.capacity;
  }

  /** Stores a PDU in the first free slot and returns its index, or undefined when the store is full. */
  store(hex: string, tpduLength: number, status: number): number | undefined {
    const index = this.slots.indexOf(undefined);
    if (index < 0) return undefined;
    this.slots[index] = { index, status, hex, tpduLength };
    return index;
  }

  /** The message at `index` as it was before this read (undefined for an empty slot). */
  read(index: number): StoredMessage | undefined {
    const message = this.slots[index];
    if (!message) return undefined;
    const before = { ...message };
    this.markRead(message);
    return before;
  }

  /** Every message with `status` (4: all), in index order, as they were before this listing. */
  list(status: number): StoredMessage[] {
    const listed = this.slots.filter(
      (slot): slot is StoredMessage =>
        slot !== undefined && (status === MessageStatus.All || slot.status === status),
    );
    const before = listed.map((message) => ({ ...message }));
    for (const message of listed) this.markRead(message);
    return before;
  }

  /** Indexes that hold a message, for `AT+CMGD=?`. */
  occupiedIndexes(): number[] {
    return this.slots.flatMap((slot) => (slot ? [slot.index] : []));
  }

  /** `AT+CMGD=<index>[,<delflag>]`: flag 0 deletes just `index`, 1–4 per TS 27.005 §3.5.4. */
  delete(index: number, flag: number): void {
    if (flag === 0) {
      this.slots[index] = undefined;
      return;
    }
    const statuses = statusesDeletedByFlag[flag] ?? [];
    for (const slot of this.slots) {
      if (slot && statuses.includes(slot.status)) this.slots[slot.index] = undefined;
    }
  }

  private markRead(message: StoredMessage): void {
    if (message.status === MessageStatus.ReceivedUnread) message.status = MessageStatus.ReceivedRead;
  }
}
