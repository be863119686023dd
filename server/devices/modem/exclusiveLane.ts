/**
 * Work that must have a modem to itself, one at a time in call order. The AT session already
 * runs commands one by one; this lane holds whole exchanges that span several commands or wait
 * for an unsolicited answer: a multi-part send (every `AT+CMGS`), a USSD request (`AT+CUSD` and
 * its `+CUSD:`), hanging up a call. A USSD answer can then never arrive in the middle of a send,
 * and a call never interrupts one.
 */
export class ExclusiveLane {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work, work);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
