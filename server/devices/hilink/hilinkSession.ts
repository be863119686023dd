/**
 * A session with a Huawei HiLink stick's web API (E3372h-320, E8372: router-mode sticks with no
 * AT port, reached over the network adapter they create, by default at http://192.168.8.1).
 * Written from the public clients:
 * - Salamek/huawei-lte-api huawei_lte_api/Session.py: `<request>` XML bodies with
 *   Content-Type application/xml; the `__RequestVerificationToken` request header; new tokens
 *   from the `__RequestVerificationTokenone`/`…two` or `__RequestVerificationToken` response
 *   headers; on error 125002 (ERROR_SYSTEM_CSRF, huawei_lte_api/enums/client.py) the session is
 *   initialised again and the call retried once; 125003 is ERROR_WRONG_SESSION_TOKEN.
 * - pablo/huawei-modem-python-api-client huaweisms/api/user.py and api/common.py: GET
 *   /api/webserver/SesTokInfo answers `<SesInfo>SessionID=…</SesInfo><TokInfo>…</TokInfo>`; the
 *   SesInfo goes back as the `SessionID` cookie, TokInfo is the first token; a response header
 *   may carry several tokens separated by '#'; a new SessionID cookie replaces the old one.
 * Tokens are used once each: every call takes the next one, and the answer brings the next.
 */
import type { Clock } from '../../clock/clock.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import { childText, errorCodeOf, requestXml, type XmlValue } from './hilinkXml.js';

export interface HiLinkSessionOptions {
  /** e.g. "http://192.168.8.1". */
  baseUrl: string;
  clock: Clock;
  /** Per HTTP request, ms. */
  timeoutMs: number;
}

/** huawei_lte_api/enums/client.py: ERROR_SYSTEM_CSRF and ERROR_WRONG_SESSION_TOKEN. */
const SESSION_ERRORS: ReadonlySet<number> = new Set([125002, 125003]);

export class HiLinkSession {
  private readonly baseUrl: string;
  private cookie?: string;
  private tokens: string[] = [];

  constructor(private readonly options: HiLinkSessionOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  get url(): string {
    return this.baseUrl;
  }

  /** A fresh session cookie and first token (huaweisms/api/user.py quick_login). */
  async open(): Promise<void> {
    this.cookie = undefined;
    this.tokens = [];
    const xml = await this.request('GET', 'webserver/SesTokInfo');
    const session = childText(xml, 'SesInfo');
    const token = childText(xml, 'TokInfo');
    if (!session || !token) {
      throw new GatewayError(ErrorCode.HiLinkApiError, `${this.baseUrl} gave no session (SesTokInfo)`);
    }
    this.cookie = session.includes('=') ? session : `SessionID=${session}`;
    this.tokens = [token];
  }

  /** GET /api/<endpoint>; resolves with the `<response>` XML. */
  get(endpoint: string): Promise<string> {
    return this.withSession(() => this.request('GET', endpoint));
  }

  /** POST /api/<endpoint> with a `<request>` body; resolves with the `<response>` XML. */
  post(endpoint: string, children: readonly [string, XmlValue][]): Promise<string> {
    return this.withSession(() => this.request('POST', endpoint, requestXml(children)));
  }

  /** A session or CSRF error means the stick forgot us (timeout, reboot): open again, retry once. */
  private async withSession(call: () => Promise<string>): Promise<string> {
    if (!this.cookie || this.tokens.length === 0) await this.open();
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof GatewayError) || !SESSION_ERRORS.has(error.modemCode ?? 0)) throw error;
      await this.open();
      return call();
    }
  }

  private async request(method: 'GET' | 'POST', endpoint: string, body?: string): Promise<string> {
    const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest' };
    if (this.cookie) headers.Cookie = this.cookie;
    const token = this.tokens.shift();
    if (token) headers.__RequestVerificationToken = token;
    if (body !== undefined) headers['Content-Type'] = 'application/xml';
    const abort = new AbortController();
    const timer = this.options.clock.setTimer(() => abort.abort(), this.options.timeoutMs);
    let response: Response;
    let xml: string;
    try {
      const init: RequestInit = { method, headers, signal: abort.signal };
      if (body !== undefined) init.body = body;
      response = await fetch(`${this.baseUrl}/api/${endpoint}`, init);
      xml = await response.text();
    } catch (error) {
      if (token) this.tokens.unshift(token);
      throw new GatewayError(ErrorCode.ModemUnavailable, `${this.baseUrl} did not answer ${endpoint}`, {
        cause: error,
      });
    } finally {
      timer.cancel();
    }
    this.takeRotation(response.headers);
    if (!response.ok) {
      throw new GatewayError(ErrorCode.HiLinkApiError, `${endpoint} answered HTTP ${response.status}`);
    }
    const code = errorCodeOf(xml);
    if (code !== undefined) {
      throw new GatewayError(ErrorCode.HiLinkApiError, `${endpoint} answered error ${code}`, {
        modemCode: code,
      });
    }
    // A GET spends no token on sticks that do not rotate on reads: keep it for the next call.
    if (token && method === 'GET' && this.tokens.length === 0) this.tokens.push(token);
    return xml;
  }

  private takeRotation(headers: Headers): void {
    const rotated = [
      headers.get('__RequestVerificationTokenone'),
      headers.get('__RequestVerificationTokentwo'),
    ].filter((value): value is string => Boolean(value));
    const single = headers.get('__RequestVerificationToken');
    const fresh = rotated.length > 0 ? rotated : single ? single.split('#').filter(Boolean) : [];
    if (fresh.length > 0) this.tokens = fresh;
    const session = /SessionID=([^;]+)/.exec(headers.get('set-cookie') ?? '')?.[1];
    if (session) this.cookie = `SessionID=${session}`;
  }
}
