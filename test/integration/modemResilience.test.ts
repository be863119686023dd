/**
 * Issue 3 acceptance: two simulated modems on ptys carry 1,000 queued messages while one is
 * unplugged and plugged back in and the other hangs (answers nothing) for a while; 100
 * incoming messages arrive meanwhile. Nothing may be lost or sent twice.
 *
 * The hang lasts 30 s. Here it lasts SILENCE_MS with the driver's health interval,
 * probe and send timeouts shortened in proportion (MODEM_TIMING), so the suite stays well under
 * 90 s on two cores while the hang still outlasts several health rounds and a send timeout.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ModemTimingOptions } from '../../server/devices/modem/modemTiming.js';
import type { AcceptedPdu } from '../../server/devices/simulator/simulatedModem.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import {
  type ApiInboxEntry,
  type ApiMessage,
  isFinal,
  listAllInbox,
  listAllMessages,
  waitForReadyModems,
} from './support/apiReads.js';
import {
  inParallel,
  type PlannedIncoming,
  type PlannedMessage,
  partCounts,
  plannedIncoming,
  plannedMessage,
} from './support/trafficPlan.js';

const MESSAGE_COUNT = 1_000;
const INCOMING_COUNT = 100;
const STATUS_REPORT_DELAY_MS = 300;
/** Network time to accept one part; keeps the queue busy through both disruptions. */
const NETWORK_SEND_DELAY_MS = 15;
const UNPLUGGED_MS = 2_000;
const SILENCE_MS = 10_000;
/** Parts both modems send before the disruptions begin. */
const UNDISTURBED_PARTS = 300;
/** Longest a status report may sit in the SIM before the driver reads it (slack for 2 cores). */
const REPORT_READ_MS = 1_000;
const INTERRUPTED_ERROR = 'interrupted; may have been sent';
const MODEM_TIMING: Partial<ModemTimingOptions> = {
  commandTimeoutMs: 2_000,
  syncAttempts: 2,
  syncTimeoutMs: 500,
  sendTimeoutMs: 3_000,
  healthIntervalMs: 1_000,
  probeTimeoutMs: 1_000,
  pollIntervalMs: 5_000,
  backoffInitialMs: 200,
  backoffMaxMs: 1_000,
};

interface Figures {
  /** Messages each modem finished per second while both ran undisturbed. */
  messagesPerSecond: [number, number];
  /** The same once both modems were back, on the rest of the queue. */
  messagesPerSecondAfterRecovery: [number, number];
  /** Time to POST the 1,000 messages (sending paused meanwhile). */
  enqueueSeconds: number;
  /** Replug (the pty starts to appear) → the device is `ready` again in GET /devices. */
  replugToReadyMs: number;
  /** Replug → the first part accepted by the replugged modem. */
  replugToFirstSendMs: number;
  /** Start of the hang → the driver reports the modem `recovering`. */
  hangToDetectedMs: number;
  /** End of the hang → the hung modem is `ready` again. */
  hangEndToReadyMs: number;
  totalSeconds: number;
  timeline: string[];
}

interface Outcome {
  planned: PlannedMessage[];
  ids: string[];
  messages: Map<string, ApiMessage>;
  accepted: AcceptedPdu[];
  /** Recipients whose status report went away with the unplugged simulator. */
  reportsLostWithModem0: Set<string>;
  inbox: ApiInboxEntry[];
  incoming: PlannedIncoming[];
  figures: Figures;
}

describe('two modems on ptys, one unplugged and replugged and one hung, under 1,000 queued messages', () => {
  let harness: GatewayHarness;
  let outcome: Outcome;

  beforeAll(async () => {
    harness = await startGatewayHarness({
      ptyModems: 2,
      ptyModemOptions: () => ({
        statusReportDelayMs: STATUS_REPORT_DELAY_MS,
        sendDelayMs: NETWORK_SEND_DELAY_MS,
      }),
      modemTiming: MODEM_TIMING,
    });
    outcome = await runScenario(harness);
  }, 100_000);

  afterAll(async () => {
    await harness?.close();
  });

  it('accepts all 1,000 messages and lists each exactly once', () => {
    expect(outcome.ids).toHaveLength(MESSAGE_COUNT);
    expect(new Set(outcome.ids).size).toBe(MESSAGE_COUNT);
    expect(outcome.messages.size).toBe(MESSAGE_COUNT);
  });

  it('never hands a part to a modem twice', () => {
    const repeated = [...partCounts(outcome.accepted)].filter(([, count]) => count > 1);
    expect(repeated).toEqual([]);
  });

  it('ends every message Sent, Delivered or (only when a disruption cut its send short) Failed', () => {
    const counts = partCounts(outcome.accepted);
    const wrong: string[] = [];
    let failed = 0;
    let partsOfFinishedMessages = 0;
    for (const [index, planned] of outcome.planned.entries()) {
      const message = outcome.messages.get(outcome.ids[index] ?? '');
      const accepted = Array.from({ length: planned.parts }, (_part, part) =>
        counts.get(`${planned.phoneNumber}#${part + 1}`),
      );
      const allPartsOnce = accepted.every((count) => count === 1);
      const state = message?.state;
      const expected = planned.withDeliveryReport ? 'Delivered' : 'Sent';
      const reportLost = planned.withDeliveryReport && outcome.reportsLostWithModem0.has(planned.phoneNumber);
      if ((state === expected || (reportLost && state === 'Sent')) && allPartsOnce) {
        partsOfFinishedMessages += planned.parts;
        continue;
      }
      if (state === 'Failed' && message?.recipients[0]?.error === INTERRUPTED_ERROR) {
        failed++;
        partsOfFinishedMessages += accepted.filter((count) => count === 1).length;
        continue;
      }
      wrong.push(`${planned.phoneNumber}: ${state} with parts accepted ${JSON.stringify(accepted)}`);
    }
    expect(wrong).toEqual([]);
    // At most one send is in flight per modem, and each modem was disrupted once.
    expect(failed).toBeLessThanOrEqual(2);
    // Every accepted PDU belongs to one of the planned messages.
    expect(outcome.accepted).toHaveLength(partsOfFinishedMessages);
  });

  it('stores each of the 100 incoming messages exactly once, reassembled', () => {
    expect(outcome.inbox).toHaveLength(INCOMING_COUNT);
    const bySender = new Map(outcome.inbox.map((entry) => [entry.sender, entry]));
    expect(bySender.size).toBe(INCOMING_COUNT);
    for (const planned of outcome.incoming) {
      expect(bySender.get(planned.sender)?.contentPreview).toBe(planned.text);
    }
  });

  it('brings both modems back and reports the figures', () => {
    const { figures } = outcome;
    console.info(`modem resilience figures: ${JSON.stringify(figures)}`);
    expect(figures.messagesPerSecond.every((rate) => rate > 0)).toBe(true);
    expect(figures.replugToReadyMs).toBeLessThan(10_000);
    expect(figures.hangEndToReadyMs).toBeLessThan(10_000);
    expect(figures.totalSeconds).toBeLessThan(90);
  });
});

async function runScenario(harness: GatewayHarness): Promise<Outcome> {
  const { api, gateway } = harness;
  const startedAt = Date.now();
  const timeline: string[] = [];
  const mark = (label: string) =>
    timeline.push(
      `${Date.now() - startedAt} ms: ${label} (parts sent ${harness.acceptedBy(0).length}+${harness.acceptedBy(1).length})`,
    );
  await waitForReadyModems(api, 2);
  const deviceIds = await Promise.all([0, 1].map((index) => deviceIdAt(harness, index)));

  // Queue all 1,000 first, so the modems work from a full queue rather than at the pace of POSTs.
  gateway.setSendingPaused(true);
  const planned = Array.from({ length: MESSAGE_COUNT }, (_unused, index) =>
    plannedMessage(index, '+44770091'),
  );
  const ids = await inParallel(planned, 16, async (message) => {
    const response = await api.post<ApiMessage>('/messages', {
      textMessage: { text: message.text },
      phoneNumbers: [message.phoneNumber],
      withDeliveryReport: message.withDeliveryReport,
    });
    if (response.status !== 202)
      throw new Error(`POST /messages answered ${response.status}: ${response.text}`);
    return response.body.id;
  });
  const enqueueSeconds = (Date.now() - startedAt) / 1000;
  mark('1,000 queued');
  gateway.setSendingPaused(false);

  const incoming = Array.from({ length: INCOMING_COUNT }, (_unused, index) =>
    plannedIncoming(index, '+44770092'),
  );
  const traffic = new IncomingTraffic(harness, incoming);
  const receiving = traffic.run();

  // Both modems run undisturbed for a while; the rates are taken over that stretch.
  await vi.waitFor(
    () => {
      if (harness.acceptedBy(0).length + harness.acceptedBy(1).length < UNDISTURBED_PARTS) {
        throw new Error('still sending the undisturbed stretch');
      }
    },
    { timeout: 30_000, interval: 20 },
  );
  const undisturbed = [0, 1].map((index) => harness.acceptedBy(index).slice());
  mark('undisturbed stretch done');

  // A real SIM keeps what it stored across an unplug; the simulator's storage does not, so
  // nothing is injected into modem 0 while it may hold an unread message.
  await traffic.withhold(0);
  const unpluggedAt = Date.now();
  await harness.unplug(0);
  mark('modem 0 unplugged');
  const reportsLostWithModem0 = lostStatusReports(harness.acceptedBy(0), unpluggedAt);
  await delay(UNPLUGGED_MS);
  // From the moment the pty starts to appear, as a USB device enumerates.
  const replugAt = Date.now();
  const replugged = await harness.replug(0);
  await waitForDeviceStatus(harness, deviceIds[0] ?? '', 'ready');
  const replugToReadyMs = Date.now() - replugAt;
  mark('modem 0 replugged and ready');
  traffic.release(0);
  await vi.waitFor(
    () => {
      if (replugged.accepted.length === 0) throw new Error('no send on the replugged modem yet');
    },
    { timeout: 10_000, interval: 10 },
  );
  const replugToFirstSendMs = (replugged.accepted[0]?.acceptedAt ?? Number.NaN) - replugAt;

  traffic.hold(1);
  harness.ptyModem(1).setSilent(true);
  const hangAt = Date.now();
  mark('modem 1 hangs');
  await waitForDeviceStatus(harness, deviceIds[1] ?? '', 'recovering');
  const hangToDetectedMs = Date.now() - hangAt;
  mark('modem 1 seen recovering');
  await delay(SILENCE_MS);
  harness.ptyModem(1).setSilent(false);
  const hangEndedAt = Date.now();
  mark('modem 1 answers again');
  await waitForDeviceStatus(harness, deviceIds[1] ?? '', 'ready');
  const hangEndToReadyMs = Date.now() - hangEndedAt;
  mark('modem 1 ready');
  traffic.release(1);
  const bothBack = [0, 1].map((index) => harness.acceptedBy(index).length);

  await receiving;
  mark('100 incoming injected');
  const messages = await vi.waitFor(
    async () => {
      const byId = new Map((await listAllMessages(api)).map((message) => [message.id, message]));
      const open = planned.filter((message, index) => {
        const state = byId.get(ids[index] ?? '')?.state;
        const awaitingReport = message.withDeliveryReport && !reportsLostWithModem0.has(message.phoneNumber);
        return state === undefined || !isFinal(state, awaitingReport);
      });
      if (open.length > 0) throw new Error(`${open.length} messages not final yet`);
      return byId;
    },
    { timeout: 60_000, interval: 500 },
  );
  mark('every message final');
  const inbox = await vi.waitFor(
    async () => {
      const entries = await listAllInbox(api);
      if (entries.length < INCOMING_COUNT) throw new Error(`${entries.length} incoming stored`);
      return entries;
    },
    { timeout: 20_000, interval: 200 },
  );

  return {
    planned,
    ids,
    messages,
    accepted: [...harness.acceptedBy(0), ...harness.acceptedBy(1)],
    reportsLostWithModem0,
    inbox,
    incoming,
    figures: {
      messagesPerSecond: [
        messagesPerSecond(undisturbed[0] ?? [], planned),
        messagesPerSecond(undisturbed[1] ?? [], planned),
      ],
      messagesPerSecondAfterRecovery: [
        messagesPerSecond(harness.acceptedBy(0).slice(bothBack[0]), planned),
        messagesPerSecond(harness.acceptedBy(1).slice(bothBack[1]), planned),
      ],
      enqueueSeconds,
      replugToReadyMs,
      replugToFirstSendMs,
      hangToDetectedMs,
      hangEndToReadyMs,
      totalSeconds: (Date.now() - startedAt) / 1000,
      timeline,
    },
  };
}

/**
 * Recipients whose status report the unplugged simulator took with it: a report falls due
 * STATUS_REPORT_DELAY_MS after the send, and one stored but not yet read is gone as well
 * (REPORT_READ_MS). A real SMSC would deliver them later; the simulator cannot.
 */
function lostStatusReports(accepted: readonly AcceptedPdu[], unpluggedAt: number): Set<string> {
  return new Set(
    accepted
      .filter((pdu) => pdu.decoded.statusReportRequested)
      .filter((pdu) => pdu.acceptedAt >= unpluggedAt - STATUS_REPORT_DELAY_MS - REPORT_READ_MS)
      .map((pdu) => pdu.decoded.recipient.number),
  );
}

/**
 * Injects the planned incoming messages round-robin into the modems that are not held, with
 * at most a few not yet in the inbox at a time (a SIM holds about 30 messages).
 */
class IncomingTraffic {
  private readonly held = new Set<number>();
  private injected = 0;
  /** What each modem was given, to know when its SIM is empty again. */
  private readonly injectedInto = new Map<number, PlannedIncoming[]>();

  constructor(
    private readonly harness: GatewayHarness,
    private readonly planned: readonly PlannedIncoming[],
  ) {}

  hold(modem: number): void {
    this.held.add(modem);
  }

  /**
   * Holds `modem` and waits until every message it was given is in the inbox: checked by
   * sender, since the inbox's total also counts what other modems received meanwhile.
   */
  async withhold(modem: number): Promise<void> {
    this.hold(modem);
    const given = this.injectedInto.get(modem) ?? [];
    await vi.waitFor(
      async () => {
        const senders = new Set((await listAllInbox(this.harness.api)).map((entry) => entry.sender));
        const unread = given.filter((message) => !senders.has(message.sender));
        if (unread.length > 0) throw new Error(`${unread.length} messages still on modem ${modem}`);
      },
      { timeout: 30_000, interval: 50 },
    );
  }

  release(modem: number): void {
    this.held.delete(modem);
  }

  async run(): Promise<void> {
    let turn = 0;
    for (const message of this.planned) {
      await this.waitForInbox(this.injected - 3, 60_000);
      // Choosing and injecting in one synchronous step: a hold placed meanwhile is respected.
      await vi.waitFor(
        () => {
          const free = [0, 1].filter((candidate) => !this.held.has(candidate));
          const modem = free[turn % Math.max(1, free.length)];
          if (modem === undefined) throw new Error('both modems are held');
          this.harness
            .ptyModem(modem)
            .injectIncoming(
              { sender: message.sender, text: message.text },
              message.partOrder ? { partOrder: message.partOrder } : {},
            );
          this.injectedInto.set(modem, [...(this.injectedInto.get(modem) ?? []), message]);
          this.injected++;
        },
        { timeout: 60_000, interval: 50 },
      );
      turn++;
    }
  }

  private async waitForInbox(count: number, timeoutMs: number): Promise<void> {
    if (count <= 0) return;
    await vi.waitFor(
      async () => {
        const response = await this.harness.api.get('/inbox?limit=1');
        const stored = Number(response.headers.get('x-total-count'));
        if (stored < count) throw new Error(`${stored} of ${count} incoming stored`);
      },
      { timeout: timeoutMs, interval: 25 },
    );
  }
}

async function deviceIdAt(harness: GatewayHarness, index: number): Promise<string> {
  const devices = await harness.api.get<{ id: string; modem?: { port?: string } }[]>('/devices');
  const device = devices.body.find((candidate) => candidate.modem?.port === harness.ptyPath(index));
  if (!device) throw new Error(`no device on ${harness.ptyPath(index)}`);
  return device.id;
}

async function waitForDeviceStatus(harness: GatewayHarness, deviceId: string, status: string): Promise<void> {
  await vi.waitFor(
    async () => {
      const devices = await harness.api.get<{ id: string; modem?: { status?: string } }[]>('/devices');
      const current = devices.body.find((device) => device.id === deviceId)?.modem?.status;
      if (current !== status) throw new Error(`device ${deviceId} is ${current}, waiting for ${status}`);
    },
    { timeout: 20_000, interval: 20 },
  );
}

/** Messages whose every part this modem accepted in `pdus`, per second over the span of `pdus`. */
function messagesPerSecond(pdus: readonly AcceptedPdu[], planned: readonly PlannedMessage[]): number {
  const first = pdus[0]?.acceptedAt;
  const last = pdus[pdus.length - 1]?.acceptedAt;
  if (first === undefined || last === undefined || last === first) return 0;
  const partsByNumber = new Map(planned.map((message) => [message.phoneNumber, message.parts]));
  const seen = new Map<string, number>();
  for (const pdu of pdus)
    seen.set(pdu.decoded.recipient.number, (seen.get(pdu.decoded.recipient.number) ?? 0) + 1);
  const complete = [...seen].filter(([number, count]) => count === partsByNumber.get(number)).length;
  return Math.round((complete / ((last - first) / 1000)) * 10) / 10;
}
