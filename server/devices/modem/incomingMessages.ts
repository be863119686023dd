import { type DecodedPdu, decodePdu } from '../../contract/pdu/index.js';
import { describeError, ErrorCode, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { UnsolicitedCode } from '../at/atSession.js';
import { parseCmglPdu, parseCmgrPdu } from '../at/parsers.js';
import type { DeliveryReportSink, IncomingSink } from '../pool/sinks.js';
import type { ModemSession } from './modemSession.js';
import type { MessagingSetup } from './modemSetup.js';
import { StorageOccupancy } from './storageOccupancy.js';

export interface IncomingMessagesOptions {
  /** The driver's current device id (it is fixed once the IMEI was read). */
  deviceId: () => string;
  receive: IncomingSink;
  onDeliveryReport: DeliveryReportSink;
  logger: Logger;
  commandTimeoutMs: number;
  /** Slots of a memory, undefined while unknown (`StorageOccupancy`). */
  capacityOf(memory: string): number | undefined;
  /** A memory was full at some moment: what the network brought then was refused. */
  storageFull(memory: string): void;
}

/**
 * Receiving (TS 27.005 §3.4.1, §3.5): indications and listings become reads; every message is
 * handed over (inbox or delivery report) and deleted from the modem only once that resolved,
 * so a crash or a storage failure leaves it on the SIM to be read again. Work is serialised:
 * one message is read, kept and deleted before the next.
 */
export class IncomingMessages {
  private chain: Promise<void> = Promise.resolve();
  private waitingRefresh?: Promise<void>;
  private readonly occupancy: StorageOccupancy;

  constructor(private readonly options: IncomingMessagesOptions) {
    this.occupancy = new StorageOccupancy({
      capacityOf: (memory) => options.capacityOf(memory),
      wasFull: (memory) => options.storageFull(memory),
    });
  }

  /** Handles the codes about messages; returns false for any other code. */
  handleUnsolicited(session: ModemSession, setup: MessagingSetup, code: UnsolicitedCode): boolean {
    switch (code.name) {
      case '+CMTI':
      case '+CDSI': {
        const location = parseLocation(code.args);
        if (!location) {
          this.options.logger.warn('unreadable message indication', { line: code.line });
          return true;
        }
        const storage = location.storage || setup.storage;
        if (storage) this.occupancy.stored(storage, location.index);
        void this.enqueue(() => this.readStored(session, setup, location.storage, location.index));
        return true;
      }
      case '+CMT':
      case '+CDS': {
        const pdu = code.pdu;
        if (!pdu) {
          this.options.logger.warn('direct delivery without its PDU line', { line: code.line });
          return true;
        }
        void this.enqueue(() => this.readDirect(session, setup, pdu));
        return true;
      }
      default:
        return false;
    }
  }

  /**
   * Lists every polled memory (`AT+CMGL=4` in each) and processes each entry; resolves when
   * done. A refresh asked for while one is still waiting its turn joins that one.
   */
  refresh(session: ModemSession, setup: MessagingSetup): Promise<void> {
    if (this.waitingRefresh) return this.waitingRefresh;
    const run = this.enqueue(async () => {
      this.waitingRefresh = undefined;
      const memories = setup.polledStorages.length > 0 ? setup.polledStorages : [undefined];
      for (const memory of memories) {
        await this.inMemory(session, setup, memory, () => this.listMemory(session, memory ?? setup.storage));
      }
    });
    this.waitingRefresh = run;
    return run;
  }

  /** Resolves when everything queued so far is done (tests, shutdown). */
  idle(): Promise<void> {
    return this.chain;
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.chain.then(task);
    this.chain = run.catch((error: unknown) => {
      this.options.logger.warn('reading received messages failed', { error: describeError(error) });
    });
    return run;
  }

  private async readStored(session: ModemSession, setup: MessagingSetup, storage: string, index: number) {
    await this.inMemory(session, setup, storage, async () => {
      const response = await session.execute(`AT+CMGR=${index}`, {
        timeoutMs: this.options.commandTimeoutMs,
      });
      const read = parseCmgrPdu(response.lines);
      const memory = storage || setup.storage;
      if (!read) {
        this.options.logger.debug('indicated storage slot is already empty', { storage, index });
        if (memory) this.occupancy.emptied(memory, index);
        return;
      }
      await this.process(read.pdu, () => this.remove(session, memory, index));
    });
  }

  /** One memory's listing; a memory the modem will not list now (+CMS ERROR) is left for the next poll. */
  private async listMemory(session: ModemSession, memory: string | undefined): Promise<void> {
    let lines: string[];
    try {
      ({ lines } = await session.execute('AT+CMGL=4', { timeoutMs: this.options.commandTimeoutMs * 3 }));
    } catch (error) {
      if (!isGatewayError(error, ErrorCode.CmsError) && !isGatewayError(error, ErrorCode.AtError))
        throw error;
      this.options.logger.debug('memory could not be listed', { memory, error: describeError(error) });
      return;
    }
    const entries = parseCmglPdu(lines);
    if (memory) {
      this.occupancy.listed(
        memory,
        entries.map((entry) => entry.index),
      );
    }
    if (entries.length > 0)
      this.options.logger.info('messages found in modem storage', { memory, count: entries.length });
    for (const entry of entries) {
      await this.process(entry.pdu, () => this.remove(session, memory, entry.index));
    }
  }

  /**
   * Runs `task` with `memory` selected for reading and deleting (AT+CPMS <mem1>), then selects
   * the configured one again. An empty or unknown memory name runs it where we are.
   */
  private async inMemory(
    session: ModemSession,
    setup: MessagingSetup,
    memory: string | undefined,
    task: () => Promise<void>,
  ): Promise<void> {
    const switching =
      setup.storage !== undefined && memory !== undefined && memory !== '' && memory !== setup.storage;
    const timeoutMs = this.options.commandTimeoutMs;
    if (switching) await session.execute(`AT+CPMS="${memory}"`, { timeoutMs });
    try {
      await task();
    } finally {
      if (switching) await session.execute(`AT+CPMS="${setup.storage}"`, { timeoutMs });
    }
  }

  private async readDirect(session: ModemSession, setup: MessagingSetup, pdu: string) {
    // Phase 2+ (+CSMS service 1): the network redelivers an unacknowledged +CMT/+CDS, so the
    // acknowledgement goes out only once the message is kept (TS 27.005 §3.4.4).
    await this.process(pdu, async () => {
      if (setup.acknowledgeDirect) {
        await session.execute('AT+CNMA', { timeoutMs: this.options.commandTimeoutMs });
      }
    });
  }

  private async remove(session: ModemSession, memory: string | undefined, index: number): Promise<void> {
    await session.execute(`AT+CMGD=${index}`, { timeoutMs: this.options.commandTimeoutMs });
    if (memory) this.occupancy.emptied(memory, index);
  }

  /**
   * Decodes and hands the message over; `done` (delete / acknowledge) runs only after that
   * succeeded. Undecodable PDUs and stored outgoing messages stay on the modem.
   */
  private async process(pdu: string, done: () => Promise<void>): Promise<void> {
    let decoded: DecodedPdu;
    try {
      decoded = decodePdu(pdu);
    } catch (error) {
      if (
        !isGatewayError(error, ErrorCode.PduMalformed) &&
        !isGatewayError(error, ErrorCode.PduUnsupported)
      ) {
        throw error;
      }
      this.options.logger.warn('undecodable message left in modem storage', {
        pdu,
        error: describeError(error),
      });
      return;
    }
    const deviceId = this.options.deviceId();
    if (decoded.type === 'deliver') {
      await this.options.receive(deviceId, 1, decoded);
    } else if (decoded.type === 'status-report') {
      await this.options.onDeliveryReport({
        deviceId,
        reference: decoded.messageReference,
        recipient: decoded.recipient.number,
        status: decoded.status,
        dischargedAt: decoded.dischargeTime.epochMs,
      });
    } else {
      // An SMS-SUBMIT the user stored on the SIM (stat 2/3): not ours to delete.
      return;
    }
    await done();
  }
}

/** `"SM",3` → storage and index (TS 27.005 §3.4.1 +CMTI: <mem>,<index>). */
function parseLocation(args: string): { storage: string; index: number } | undefined {
  const match = args.match(/^\s*"?([^",]*)"?\s*,\s*(\d+)/);
  if (!match) return undefined;
  return { storage: match[1] ?? '', index: Number(match[2]) };
}
