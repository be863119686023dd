/**
 * Kannel (Debian's `kannel`, 1.4.5) as the SMPP client users run against the gateway: bearerbox
 * binds to our SMPP server as a transceiver (`group = smsc`, `smsc = smpp`), smsbox takes MT
 * over its HTTP sendsms interface and hands MO and delivery reports to URLs of a small HTTP
 * server here. The configuration's groups and variables are those of the Kannel 1.4.5 user
 * guide (doc/userguide/userguide.xml: "core", "smsc" for SMPP, "smsbox", "sendsms-user",
 * "sms-service"; escape codes %p %P %b %C for MO, %d %A for a DLR).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort } from '../../../bench/support/gatewayProcess.js';
import { pollUntil } from '../../support/pollUntil.js';
import { requireSystemTool } from '../../support/systemTools.js';

/** An incoming SMS as smsbox's sms-service passed it on. */
export interface KannelMo {
  from: string;
  to: string;
  text: string;
}

/** A delivery report as smsbox's dlr-url passed it on. */
export interface KannelDlr {
  /** The tag the test gave the MT. */
  ref: string;
  /** Kannel's DLR type: 1 delivered, 2 not delivered, 8 accepted by the SMSC, 16 refused. */
  status: number;
  /** The SMSC's receipt text (`id:… stat:…`). */
  reply: string;
}

export interface Kannel {
  readonly mo: KannelMo[];
  readonly dlrs: KannelDlr[];
  /** smsbox's sendsms: resolves with its HTTP status and body ("0: Accepted for delivery"). */
  send(to: string, text: string, ref: string): Promise<{ status: number; body: string }>;
  /** Waits until bearerbox says its SMPP connection is online. */
  online(): Promise<void>;
  /** SIGSTOP / SIGCONT bearerbox: a client that stops answering, then goes on. */
  pause(): void;
  resume(): void;
  logs(): Promise<string>;
  close(): Promise<void>;
}

export interface KannelOptions {
  smppPort: number;
  systemId: string;
  password: string;
}

export async function startKannel(options: KannelOptions): Promise<Kannel> {
  const bearerbox = requireSystemTool('kannel');
  const smsbox = bearerbox.replace(/bearerbox$/, 'smsbox');
  const folder = await mkdtemp(join(tmpdir(), 'smsgw-kannel-'));
  const mo: KannelMo[] = [];
  const dlrs: KannelDlr[] = [];
  const receiver: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const query = url.searchParams;
    if (url.pathname === '/mo') {
      mo.push({ from: query.get('from') ?? '', to: query.get('to') ?? '', text: textOf(url) });
    } else if (url.pathname === '/dlr') {
      dlrs.push({
        ref: query.get('ref') ?? '',
        status: Number(query.get('status')),
        reply: query.get('reply') ?? '',
      });
    }
    // sms-service: an empty text/plain answer, so smsbox sends no reply SMS.
    response.writeHead(200, { 'content-type': 'text/plain' }).end('');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverPort = (receiver.address() as AddressInfo).port;
  const [adminPort, boxPort, sendsmsPort] = [
    await freeLoopbackPort(),
    await freeLoopbackPort(),
    await freeLoopbackPort(),
  ];
  const config = join(folder, 'kannel.conf');
  await writeFile(
    config,
    [
      'group = core',
      `admin-port = ${adminPort}`,
      'admin-password = admin',
      'status-password = admin',
      'admin-allow-ip = "127.0.0.1"',
      `smsbox-port = ${boxPort}`,
      'box-allow-ip = "127.0.0.1"',
      `log-file = "${join(folder, 'bearerbox.log')}"`,
      'log-level = 1',
      'dlr-storage = internal',
      'sms-combine-concatenated-mo = true',
      '',
      'group = smsc',
      'smsc = smpp',
      'smsc-id = gateway',
      'host = 127.0.0.1',
      `port = ${options.smppPort}`,
      'transceiver-mode = true',
      `smsc-username = "${options.systemId}"`,
      `smsc-password = "${options.password}"`,
      'system-type = ""',
      'reconnect-delay = 1',
      'enquire-link-interval = 30',
      '',
      'group = smsbox',
      'bearerbox-host = 127.0.0.1',
      `bearerbox-port = ${boxPort}`,
      `sendsms-port = ${sendsmsPort}`,
      'global-sender = 12345',
      'mo-recode = true',
      `log-file = "${join(folder, 'smsbox.log')}"`,
      'log-level = 1',
      '',
      'group = sendsms-user',
      'username = tester',
      'password = foobar',
      'max-messages = 10',
      'concatenation = true',
      '',
      'group = sms-service',
      'keyword = default',
      'catch-all = true',
      'max-messages = 0',
      `get-url = "http://127.0.0.1:${receiverPort}/mo?from=%p&to=%P&text=%b&charset=%C"`,
      '',
    ].join('\n'),
  );
  const statusText = async () => {
    const response = await fetch(`http://127.0.0.1:${adminPort}/status.txt?password=admin`).catch(
      () => undefined,
    );
    return response ? await response.text() : '';
  };
  const bearer = spawn(bearerbox, [config], { stdio: 'ignore' });
  const boxes: ChildProcess[] = [bearer];
  // smsbox gives up at once when bearerbox does not take its connection yet.
  await pollUntil(async () => (await statusText()) !== '', {
    what: 'bearerbox',
    limitMs: 30_000,
    intervalMs: 100,
  });
  boxes.push(spawn(smsbox, [config], { stdio: 'ignore' }));
  const logs = async () => {
    const read = (name: string) => readFile(join(folder, name), 'utf8').catch(() => '');
    return `${await read('bearerbox.log')}\n--- smsbox ---\n${await read('smsbox.log')}`;
  };
  return {
    mo,
    dlrs,
    async send(to, text, ref) {
      const dlrUrl = `http://127.0.0.1:${receiverPort}/dlr?ref=${encodeURIComponent(ref)}&status=%d&reply=%A`;
      const query = new URLSearchParams({
        username: 'tester',
        password: 'foobar',
        to,
        text,
        charset: 'UTF-8',
        // coding 2: UCS-2 where the text needs it (Kannel's sendsms "coding": 0 7-bit, 2 UCS-2).
        coding: /^[\x20-\x7e]*$/.test(text) ? '0' : '2',
        'dlr-mask': '3',
        'dlr-url': dlrUrl,
      });
      const response = await fetch(`http://127.0.0.1:${sendsmsPort}/cgi-bin/sendsms?${query}`);
      return { status: response.status, body: await response.text() };
    },
    async online() {
      try {
        await pollUntil(async () => /online/.test(await statusText()) && (await smsboxUp(sendsmsPort)), {
          what: "Kannel's SMPP connection to the gateway",
          limitMs: 60_000,
          intervalMs: 200,
        });
      } catch (error) {
        throw new Error(`${String(error)}\n${await statusText()}\n${await logs()}`);
      }
    },
    pause: () => bearer.kill('SIGSTOP'),
    resume: () => bearer.kill('SIGCONT'),
    logs,
    async close() {
      bearer.kill('SIGCONT');
      for (const box of boxes) box.kill('SIGTERM');
      await Promise.all(
        boxes.map(
          (box) =>
            new Promise<void>((resolve) => {
              if (box.exitCode !== null || box.signalCode !== null) return resolve();
              const force = setTimeout(() => box.kill('SIGKILL'), 5_000);
              box.once('exit', () => {
                clearTimeout(force);
                resolve();
              });
            }),
        ),
      );
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** Whether smsbox's sendsms interface answers (a request without credentials is refused). */
async function smsboxUp(port: number): Promise<boolean> {
  const response = await fetch(`http://127.0.0.1:${port}/cgi-bin/sendsms`).catch(() => undefined);
  return response !== undefined;
}

/** The MO text: %b is the message's octets, URL-encoded, in the charset %C names. */
function textOf(url: URL): string {
  const raw = url.search.match(/[?&]text=([^&]*)/)?.[1] ?? '';
  const octets = Buffer.from(
    raw
      .replace(/\+/g, ' ')
      .replace(/%([0-9A-Fa-f]{2})/g, (_all, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  );
  const charset = (url.searchParams.get('charset') ?? '').toUpperCase();
  if (charset === 'UTF-16BE') return Buffer.from(octets).swap16().toString('utf16le');
  if (charset === 'UTF-8') return octets.toString('utf8');
  return octets.toString('latin1');
}
