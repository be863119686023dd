import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock/clock.js';
import type { UssdExchangeState } from '../../contract/schemas/modemOperationsSchemas.js';
import { UssdStatus } from '../../devices/modem/ussdCodec.js';
import type { UssdAnswer } from '../../devices/pool/capabilities.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

/** What the USSD requests need from the modem pool. */
export interface UssdModems {
  ussd(deviceId: string, text: string): Promise<UssdAnswer>;
  cancelUssd(deviceId: string): Promise<void>;
}

/** One request and its answer, as the API and the modem card show it. */
export interface UssdExchange {
  id: string;
  deviceId: string;
  /** What was sent: a code, or a reply in a session. */
  request: string;
  answer: string;
  state: UssdExchangeState;
  /** Present while the network waits for a reply. */
  sessionId?: string;
  at: number;
}

/** Recent exchanges kept per modem (in memory: they are for the modem card, not a record). */
const recentLimit = 10;

/**
 * USSD requests per modem: a code starts a session, a reply with the session's id continues
 * it, and cancelling sends AT+CUSD=2. A new code while a session waits ends that session first,
 * because the network would take the code as the reply.
 */
export class UssdSessions {
  private readonly open = new Map<string, string>();
  private readonly recentByDevice = new Map<string, UssdExchange[]>();

  constructor(
    private readonly modems: UssdModems,
    private readonly clock: Clock,
  ) {}

  async request(deviceId: string, text: string, sessionId?: string): Promise<UssdExchange> {
    const waiting = this.open.get(deviceId);
    if (sessionId !== undefined && sessionId !== waiting) {
      throw new GatewayError(ErrorCode.NotFound, `USSD session ${sessionId} is not open on ${deviceId}`, {
        field: 'sessionId',
      });
    }
    if (sessionId === undefined && waiting !== undefined) await this.cancel(deviceId, waiting);
    this.open.delete(deviceId);
    const answer = await this.modems.ussd(deviceId, text);
    const exchange: UssdExchange = {
      id: randomUUID(),
      deviceId,
      request: text,
      answer: answer.text,
      state: stateOf(answer.status),
      at: this.clock.now(),
    };
    if (exchange.state === 'waiting') {
      exchange.sessionId = sessionId ?? randomUUID();
      this.open.set(deviceId, exchange.sessionId);
    }
    this.remember(exchange);
    return exchange;
  }

  async cancel(deviceId: string, sessionId: string): Promise<void> {
    if (this.open.get(deviceId) !== sessionId) {
      throw new GatewayError(ErrorCode.NotFound, `USSD session ${sessionId} is not open on ${deviceId}`, {
        field: 'sessionId',
      });
    }
    this.open.delete(deviceId);
    await this.modems.cancelUssd(deviceId);
  }

  /** Newest first. */
  recent(deviceId: string): UssdExchange[] {
    return [...(this.recentByDevice.get(deviceId) ?? [])].reverse();
  }

  private remember(exchange: UssdExchange): void {
    const list = this.recentByDevice.get(exchange.deviceId) ?? [];
    list.push(exchange);
    if (list.length > recentLimit) list.splice(0, list.length - recentLimit);
    this.recentByDevice.set(exchange.deviceId, list);
  }
}

function stateOf(status: number): UssdExchange['state'] {
  if (status === UssdStatus.FurtherActionRequired) return 'waiting';
  return status === UssdStatus.TerminatedByNetwork ? 'ended-by-network' : 'done';
}
