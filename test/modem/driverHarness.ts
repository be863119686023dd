import { ManualClock } from '../../server/clock/manualClock.js';
import type { DeliveryReport } from '../../server/contract/domain/device.js';
import type { DecodedDeliver } from '../../server/contract/pdu/index.js';
import { AtSession } from '../../server/devices/at/atSession.js';
import { ModemDriver, type ModemDriverOptions } from '../../server/devices/modem/modemDriver.js';
import { createMemoryLink, type MemoryLink } from '../../server/devices/transport/memoryTransport.js';
import { type Logger, silentLogger } from '../../server/logging/logger.js';
import { type Reply, ScriptedModem, standardReplies } from '../support/scriptedModem.js';

export interface ReceivedCall {
  deviceId: string;
  simNumber: number;
  sms: DecodedDeliver;
}

/**
 * A ModemDriver over the real AtSession and a scripted modem on a MemoryLink, on a ManualClock.
 * Each (re)open plugs in a fresh link with a modem that shares the same reply table.
 */
export class DriverHarness {
  readonly clock = new ManualClock();
  readonly links: MemoryLink[] = [];
  readonly modems: ScriptedModem[] = [];
  readonly received: ReceivedCall[] = [];
  readonly reports: DeliveryReport[] = [];
  readonly replies: Array<[string | RegExp, Reply]>;
  /** When set, `openTransport` rejects with it (the modem is unplugged). */
  openError?: Error;
  openAttempts: number[] = [];
  /** Replaced by tests that want to hold or fail the inbox write. */
  receive: (call: ReceivedCall) => Promise<void> = async () => undefined;
  onPdu?: (pdu: string, command: string) => string[];
  readonly driver: ModemDriver;

  constructor(
    options: {
      replies?: Array<[string | RegExp, Reply]>;
      driver?: Partial<ModemDriverOptions>;
      /** The driver's and the AT session's logger (default silent). */
      logger?: Logger;
    } = {},
  ) {
    this.replies = [...(options.replies ?? []), ...standardReplies()];
    const logger = options.logger ?? silentLogger;
    this.driver = new ModemDriver({
      source: { port: '/dev/ttyTEST0', openTransport: async () => this.open() },
      createSession: (transport) => new AtSession(transport, { clock: this.clock, logger }),
      receive: async (deviceId, simNumber, sms) => {
        const call = { deviceId, simNumber, sms };
        await this.receive(call);
        this.received.push(call);
      },
      onDeliveryReport: async (report) => {
        this.reports.push(report);
        return true;
      },
      clock: this.clock,
      logger,
      initialConcatReference: 42,
      ...options.driver,
    });
  }

  /** The modem on the current link. */
  get modem(): ScriptedModem {
    const modem = this.modems.at(-1);
    if (!modem) throw new Error('no modem plugged in yet');
    return modem;
  }

  /** Adds a reply ahead of the standard ones, for this and every later plug-in. */
  script(command: string | RegExp, reply: Reply): void {
    this.replies.unshift([command, reply]);
    for (const modem of this.modems) modem.script(command, reply);
  }

  /**
   * Gives each memory its own AT+CMGL=4 listing (header and PDU line pairs, no final OK),
   * following AT+CPMS="<mem1>"; AT+CMGD=<index> removes that entry from the selected memory.
   * A memory not named lists nothing. The standard modem offers SM and ME.
   */
  scriptMemories(listings: Record<string, string[]>): void {
    let selected = 'SM';
    this.script(/^AT\+CPMS="/, (command) => {
      selected = /^AT\+CPMS="([A-Z]+)"/.exec(command)?.[1] ?? selected;
      return ['+CPMS: 0,30,0,30,0,30', 'OK'];
    });
    this.script('AT+CMGL=4', () => [...(listings[selected] ?? []), 'OK']);
    this.script(/^AT\+CMGD=\d+$/, (command) => {
      const index = command.slice('AT+CMGD='.length);
      const lines = listings[selected] ?? [];
      const at = lines.findIndex((line) => line.startsWith(`+CMGL: ${index},`));
      if (at >= 0) lines.splice(at, 2);
      return ['OK'];
    });
  }

  /** Starts the driver, moving the clock until the first attempt finished. */
  async start(): Promise<void> {
    await this.settle(this.driver.start());
  }

  /** Awaits `promise` while advancing the clock in small steps (timeouts need time to pass). */
  async settle<T>(promise: Promise<T>, stepMs = 250, limitMs = 10 * 60_000): Promise<T> {
    let done = false;
    const tracked = promise.finally(() => {
      done = true;
    });
    tracked.catch(() => undefined);
    for (let elapsed = 0; !done && elapsed < limitMs; elapsed += stepMs) await this.clock.advance(stepMs);
    return tracked;
  }

  /** Lets the in-memory link and promise chains run without moving the clock. */
  async flush(rounds = 20): Promise<void> {
    for (let round = 0; round < rounds; round++) await new Promise((resolve) => setImmediate(resolve));
  }

  /** Advances the clock in steps until `condition` holds. */
  async until(condition: () => boolean, stepMs = 250, limitMs = 10 * 60_000): Promise<void> {
    for (let elapsed = 0; !condition(); elapsed += stepMs) {
      if (elapsed >= limitMs) throw new Error('condition not reached in time');
      await this.clock.advance(stepMs);
    }
  }

  private async open() {
    this.openAttempts.push(this.clock.now());
    if (this.openError) throw this.openError;
    const link = createMemoryLink(`test-${this.links.length}`);
    const modem: ScriptedModem = new ScriptedModem(link.device, {
      replies: this.replies,
      onPdu: (pdu: string, command: string): string[] =>
        this.onPdu?.(pdu, command) ?? [`+CMGS: ${modem.pdus.length - 1}`, 'OK'],
    });
    await modem.start();
    this.links.push(link);
    this.modems.push(modem);
    return link.host;
  }
}
