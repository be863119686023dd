/**
 * A contract double of a Huawei HiLink stick's web API (E3372h-320 in router mode), on a real
 * HTTP server on loopback. Written from what the public clients send and expect:
 * - Salamek/huawei-lte-api huawei_lte_api/Session.py: POST bodies are `<request>` XML; the
 *   `__RequestVerificationToken` request header; a fresh token in the `__RequestVerificationToken`
 *   response header; errors as `<error><code>…</code><message>…</message></error>`;
 *   huawei_lte_api/enums/client.py: 125002 ERROR_SYSTEM_CSRF, 125003 ERROR_WRONG_SESSION_TOKEN.
 * - huawei_lte_api/api/Sms.py: send-sms (Index, Phones/Phone, Sca, Content, Length, Reserved,
 *   Date), sms-list (PageIndex, ReadCount, BoxType, SortType, Ascending, UnreadPreferred),
 *   delete-sms (Index); huawei_lte_api/api/Monitoring.py status (SignalIcon); README.md
 *   device/information (DeviceName, Imei, SoftwareVersion…).
 * - pablo/huawei-modem-python-api-client huaweisms/api/user.py, api/common.py, api/sms.py:
 *   webserver/SesTokInfo gives `<SesInfo>SessionID=…</SesInfo><TokInfo>…</TokInfo>`, the
 *   session travels as the `SessionID` cookie; sms-list entries (Smstat, Index, Phone, Content,
 *   Date, Sca, SaveType, Priority, SmsType).
 * Strict where real sticks are: every POST spends its token (a reused or missing one is 125002)
 * and a forgotten session is 125003.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StickMessage {
  index: number;
  phone: string;
  content: string;
  date: string;
}

export interface StickRequest {
  method: string;
  path: string;
  token?: string;
  cookie?: string;
  body: string;
}

const tag = (name: string, body: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(body)?.[1];

export class HiLinkStickDouble {
  readonly requests: StickRequest[] = [];
  readonly sent: { phones: string[]; content: string; reserved: string }[] = [];
  readonly inbox: StickMessage[] = [];
  readonly issuedTokens: string[] = [];
  signalIcon = 4;
  /** Sessions are handed out but never recognised afterwards (a stick stuck in a bad state). */
  refuseSessions = false;
  private readonly sessions = new Map<string, Set<string>>();
  private nextIndex = 40000;
  private server?: Server;

  /** Starts listening on 127.0.0.1 (any free port, or `port`); resolves with the base URL. */
  async start(port = 0): Promise<string> {
    const server = createServer((request, response) => void this.handle(request, response));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** A message arriving from the network into the stick's inbox. */
  deliver(phone: string, content: string, date = '2026-11-25 10:00:00'): void {
    this.inbox.push({ index: this.nextIndex++, phone, content, date });
  }

  /** The stick forgets every session (it rebooted, or the session timed out). */
  forgetSessions(): void {
    this.sessions.clear();
  }

  /** Every token handed out so far stops being valid; sessions stay (the CSRF case). */
  revokeTokens(): void {
    for (const tokens of this.sessions.values()) tokens.clear();
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    const path = new URL(request.url ?? '/', 'http://stick').pathname;
    const token = header(request, '__requestverificationtoken');
    const cookie = /SessionID=([^;]+)/.exec(header(request, 'cookie') ?? '')?.[1];
    const entry: StickRequest = { method: request.method ?? 'GET', path, body };
    if (token) entry.token = token;
    if (cookie) entry.cookie = cookie;
    this.requests.push(entry);

    if (path === '/api/webserver/SesTokInfo') {
      const session = randomBytes(8).toString('hex');
      const first = this.issue(session);
      reply(response, `<SesInfo>SessionID=${session}</SesInfo><TokInfo>${first}</TokInfo>`);
      return;
    }
    const tokens = cookie === undefined ? undefined : this.sessions.get(cookie);
    if (!tokens || cookie === undefined || this.refuseSessions) {
      fail(response, 125003);
      return;
    }
    if (request.method === 'POST') {
      if (!token || !tokens.has(token)) {
        fail(response, 125002);
        return;
      }
      tokens.delete(token);
      response.setHeader('__RequestVerificationToken', this.issue(cookie));
    }
    reply(response, this.answer(request.method ?? 'GET', path, body));
  }

  private answer(method: string, path: string, body: string): string {
    if (method === 'GET' && path === '/api/device/information') {
      return '<DeviceName>E3372h-320</DeviceName><SerialNumber>G4P7S18A1234</SerialNumber><Imei>867698041234568</Imei><SoftwareVersion>11.0.1.1(H697SP1C983)</SoftwareVersion>';
    }
    if (method === 'GET' && path === '/api/monitoring/status') {
      return `<ConnectionStatus>901</ConnectionStatus><SignalIcon>${this.signalIcon}</SignalIcon><CurrentNetworkType>19</CurrentNetworkType>`;
    }
    if (method === 'POST' && path === '/api/sms/send-sms') {
      const phones = [...(tag('Phones', body) ?? '').matchAll(/<Phone>([^<]*)<\/Phone>/g)].map(
        (match) => match[1] ?? '',
      );
      this.sent.push({
        phones,
        content: unescapeText(tag('Content', body) ?? ''),
        reserved: tag('Reserved', body) ?? '',
      });
      return 'OK';
    }
    if (method === 'POST' && path === '/api/sms/sms-list') {
      const count = Number(tag('ReadCount', body) ?? 20);
      const page = this.inbox.slice(0, count);
      const messages = page
        .map(
          (message) =>
            `<Message><Smstat>0</Smstat><Index>${message.index}</Index><Phone>${message.phone}</Phone>` +
            `<Content>${escapeText(message.content)}</Content><Date>${message.date}</Date><Sca></Sca>` +
            '<SaveType>4</SaveType><Priority>0</Priority><SmsType>1</SmsType></Message>',
        )
        .join('');
      return `<Count>${page.length}</Count><Messages>${messages}</Messages>`;
    }
    if (method === 'POST' && path === '/api/sms/delete-sms') {
      const index = Number(tag('Index', body));
      const at = this.inbox.findIndex((message) => message.index === index);
      if (at >= 0) this.inbox.splice(at, 1);
      return 'OK';
    }
    return '';
  }

  private issue(session: string): string {
    const token = randomBytes(16).toString('hex');
    const tokens = this.sessions.get(session) ?? new Set<string>();
    tokens.add(token);
    this.sessions.set(session, tokens);
    this.issuedTokens.push(token);
    return token;
  }
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function reply(response: ServerResponse, inner: string): void {
  response.setHeader('Content-Type', 'text/html');
  response.end(`<?xml version="1.0" encoding="UTF-8"?><response>${inner}</response>`);
}

/** Sticks answer errors with HTTP 200 and an `<error>` body. */
function fail(response: ServerResponse, code: number): void {
  response.setHeader('Content-Type', 'text/html');
  response.end(
    `<?xml version="1.0" encoding="UTF-8"?><error><code>${code}</code><message></message></error>`,
  );
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function unescapeText(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
