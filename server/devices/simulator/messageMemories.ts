import { MessageStorage } from './messageStorage.js';

/**
 * The modem's message memories (TS 27.005 §3.2.2): the SIM's "SM", and "SR" for status reports
 * when the modem keeps them apart; AT+CPMS <mem1> picks the one read and deleted.
 */
export class MessageMemories {
  /** The SIM store: incoming messages, and status reports unless they have their own. */
  readonly sim: MessageStorage;
  private readonly byName = new Map<string, MessageStorage>();
  private selected: MessageStorage;

  constructor(size: number, separateReports: boolean) {
    this.sim = new MessageStorage(size);
    this.byName.set('SM', this.sim);
    if (separateReports) this.byName.set('SR', new MessageStorage(size));
    this.selected = this.sim;
  }

  /** Every memory by name. */
  get all(): ReadonlyMap<string, MessageStorage> {
    return this.byName;
  }

  /** The memory AT+CPMS selected for reading and deleting (<mem1>). */
  get reading(): MessageStorage {
    return this.selected;
  }

  /** AT+CPMS <mem1>: false for a memory the modem does not have. */
  select(name: string): boolean {
    const memory = this.byName.get(name);
    if (memory) this.selected = memory;
    return memory !== undefined;
  }

  /** A restart reads the SIM again. */
  resetSelection(): void {
    this.selected = this.sim;
  }
}
