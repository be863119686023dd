/**
 * A Huawei HiLink (router-mode) stick as a pool member: it has no AT port, only the web API
 * (`hilinkSession.ts`). Endpoints and fields as the public clients use them:
 * - /api/sms/send-sms, /api/sms/sms-list, /api/sms/delete-sms: Salamek/huawei-lte-api
 *   huawei_lte_api/api/Sms.py (send_sms, get_sms_list — order-sensitive fields —, delete_sms)
 *   and huawei_lte_api/enums/sms.py (BoxType 1 = LOCAL_INBOX; Reserved is the text mode,
 *   1 = SEVEN_BIT, the value both public clients always send); list entries carry Index, Phone,
 *   Content and Date (pablo/huawei-modem-python-api-client huaweisms/api/sms.py get_sms).
 * - /api/device/information (DeviceName, Imei, SoftwareVersion: huawei-lte-api README.md) and
 *   /api/monitoring/status (SignalIcon, huawei_lte_api/api/Monitoring.py).
 *
 * What it cannot do, and says so in its details: the API reports no TP-MR for a sent message,
 * so no delivery report can be matched to it; it sends text only (no data SMS to a port); it
 * has no SIM PIN entry or SMS domain setting here.
 */
import type { Clock, TimerHandle } from '../../clock/clock.js';
import type { ModemDetails, ModemStatus, SimCardInfo } from '../../contract/domain/device.js';
import { deliverOfText } from '../../contract/pdu/textDeliver.js';
import { describeError, ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { DeviceCapabilities } from '../pool/capabilities.js';
import { deriveDeviceId } from '../pool/deviceIdentity.js';
import { MemberState } from '../pool/memberState.js';
import type { SendRequest, SendResult } from '../pool/outboundModem.js';
import type { PoolMember } from '../pool/poolMember.js';
import type { IncomingSink } from '../pool/sinks.js';
import type { HiLinkSession } from './hilinkSession.js';
import { childBlocks, childText } from './hilinkXml.js';

export interface HiLinkModemOptions {
  session: HiLinkSession;
  receive: IncomingSink;
  clock: Clock;
  logger: Logger;
  /** Inbox listing and status interval, ms. Default 15 000. */
  pollIntervalMs?: number;
  /** First reconnect delay after the stick stopped answering, ms; doubles up to 60 s. Default 2 000. */
  retryInitialMs?: number;
}

export const hilinkLimitations = [
  'A HiLink stick, reached through its web API: it has no AT port.',
  'No delivery reports: the web API gives no message reference to match them to.',
  'Text messages only: no data SMS to a port.',
  "No USSD here; the SIM PIN is entered in the stick's own web page (http://192.168.8.1).",
] as const;

/** huawei_lte_api/enums/sms.py BoxTypeEnum.LOCAL_INBOX. */
const LOCAL_INBOX = 1;
/** Messages per sms-list page (the web UI's own page size is 20). */
const PAGE_SIZE = 20;

export class HiLinkModem implements PoolMember {
  readonly simSlots = 1;
  /** The web API offers no USSD, PIN or SMS domain route here, and no delivery reports. */
  readonly capabilities: DeviceCapabilities = { storage: this };
  private readonly logger: Logger;
  private readonly state: MemberState;
  private identity: { model?: string; revision?: string; imei?: string } = {};
  private signalIcon?: number;
  private timer?: TimerHandle;
  private failures = 0;
  private stopped = false;
  private polling: Promise<void> = Promise.resolve();

  constructor(private readonly options: HiLinkModemOptions) {
    this.state = new MemberState(options.clock);
    this.logger = options.logger.child(`hilink:${options.session.url}`);
  }

  get port(): string {
    return this.options.session.url;
  }

  get deviceId(): string {
    return deriveDeviceId(
      this.identity.imei ? { imei: this.identity.imei, port: this.port } : { port: this.port },
    );
  }

  get status(): ModemStatus {
    return this.state.status;
  }

  get lastSeen(): number {
    return this.state.lastSeen;
  }

  onChange(listener: () => void): () => void {
    return this.state.onChange(listener);
  }

  /** Reads identity and status once; the inbox is listed on a timer from then on. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.round();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await this.polling;
    this.state.set('offline', 'stopped');
  }

  details(): ModemDetails {
    const details: ModemDetails = {
      port: this.port,
      simulated: false,
      status: this.state.status,
      kind: 'hilink',
      limitations: [...hilinkLimitations],
      manufacturer: 'Huawei',
    };
    if (this.state.detail) details.statusDetail = this.state.detail;
    if (this.identity.model) details.model = this.identity.model;
    if (this.identity.revision) details.revision = this.identity.revision;
    if (this.identity.imei) details.imei = this.identity.imei;
    if (this.signalIcon !== undefined) {
      // SignalIcon counts 0–5 bars; the UI shows 0–4.
      details.signal = { rssi: 99, bars: Math.min(4, Math.round((this.signalIcon * 4) / 5)) };
    }
    return details;
  }

  simCard(): SimCardInfo {
    return { slotIndex: 0, simNumber: 1 };
  }

  async send(request: SendRequest): Promise<SendResult> {
    if (this.state.status !== 'ready') {
      throw new GatewayError(ErrorCode.ModemUnavailable, `HiLink stick ${this.port} is ${this.state.status}`);
    }
    if (request.content.kind !== 'text') {
      throw new GatewayError(ErrorCode.ValidationFailed, 'a HiLink stick sends text messages only', {
        field: 'dataMessage',
      });
    }
    const text = request.content.text;
    try {
      await this.options.session.post('sms/send-sms', [
        ['Index', -1],
        ['Phones', [['Phone', request.recipient]]],
        ['Sca', ''],
        ['Content', text],
        ['Length', text.length],
        ['Reserved', 1],
        ['Date', stickTime(this.options.clock.now())],
      ]);
    } catch (error) {
      // The stick said no (an <error>): nothing left. No answer at all: it may have gone out.
      if (error instanceof GatewayError && error.code === ErrorCode.HiLinkApiError) throw error;
      throw new GatewayError(ErrorCode.SendInterrupted, 'the HiLink stick did not confirm the send', {
        cause: error,
      });
    }
    this.state.touch();
    this.logger.info('message sent', { messageId: request.messageId });
    // No TP-MR comes back: -1 matches no status report (see hilinkLimitations).
    return { references: [-1] };
  }

  async refreshInbox(): Promise<void> {
    await this.readInbox();
  }

  /** Identity (first time), status and inbox; then the next round, sooner after a failure. */
  private async round(): Promise<void> {
    const run = (async () => {
      try {
        if (!this.identity.imei) await this.readIdentity();
        await this.readStatus();
        if (this.state.status !== 'ready') this.state.set('ready');
        this.failures = 0;
        await this.readInbox();
      } catch (error) {
        this.failures++;
        this.logger.warn('HiLink stick not answering', { error: describeError(error) });
        this.state.set('offline', `The HiLink stick does not answer: ${describeError(error)}`);
      }
    })();
    this.polling = run;
    await run;
    if (this.stopped) return;
    const retry = Math.min(
      60_000,
      (this.options.retryInitialMs ?? 2_000) * 2 ** Math.max(0, this.failures - 1),
    );
    const delay = this.failures > 0 ? retry : (this.options.pollIntervalMs ?? 15_000);
    this.timer = this.options.clock.setTimer(() => void this.round(), delay);
  }

  private async readIdentity(): Promise<void> {
    const xml = await this.options.session.get('device/information');
    const identity: typeof this.identity = {};
    const model = childText(xml, 'DeviceName');
    const revision = childText(xml, 'SoftwareVersion');
    const imei = childText(xml, 'Imei');
    if (model) identity.model = model;
    if (revision) identity.revision = revision;
    if (imei) identity.imei = imei;
    this.identity = identity;
    this.state.touch();
    this.logger.info('HiLink stick identified', { ...identity, deviceId: this.deviceId });
  }

  private async readStatus(): Promise<void> {
    const xml = await this.options.session.get('monitoring/status');
    const icon = Number(childText(xml, 'SignalIcon'));
    this.signalIcon = Number.isInteger(icon) ? icon : undefined;
    this.state.touch();
    this.state.changed();
  }

  /** Every message in the stick's inbox reaches the inbox, then is deleted from the stick. */
  private async readInbox(): Promise<void> {
    const xml = await this.options.session.post('sms/sms-list', [
      ['PageIndex', 1],
      ['ReadCount', PAGE_SIZE],
      ['BoxType', LOCAL_INBOX],
      ['SortType', 0],
      ['Ascending', 0],
      ['UnreadPreferred', 0],
    ]);
    for (const message of childBlocks(xml, 'Message')) {
      const index = childText(message, 'Index');
      const phone = childText(message, 'Phone');
      if (index === undefined || phone === undefined) continue;
      const content = childText(message, 'Content') ?? '';
      const date = childText(message, 'Date');
      // Its Date has no zone: read as the gateway's local time.
      const parsed = date ? new Date(date.replace(' ', 'T')).getTime() : Number.NaN;
      const sms = deliverOfText(phone, content, Number.isNaN(parsed) ? this.options.clock.now() : parsed);
      await this.options.receive(this.deviceId, 1, sms);
      await this.options.session.post('sms/delete-sms', [['Index', index]]);
    }
    this.state.touch();
  }
}

/** "2025-12-31 12:00:00" in the gateway's local time, as huawei-lte-api sends Date. */
function stickTime(epochMs: number): string {
  const at = new Date(epochMs);
  const two = (value: number) => String(value).padStart(2, '0');
  return (
    `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ` +
    `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`
  );
}
