/**
 * The SMPP server's limits (issue 46, RELIABILITY.md): connections at once, the bind and PDU
 * timers, the enquire_link check of a quiet session, and a client that sends without reading.
 * The server listens on a loopback port and clients are real TCP sockets (the `smpp` npm
 * client, or raw octets); its timers run on a ManualClock, so no case waits for real time.
 */

import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { type SmppServer, startSmppServer } from '../../server/doors/smpp/smppServer.js';
import { defaultSessionLimits, SmppSession } from '../../server/doors/smpp/smppSession.js';
import { SmppStatus } from '../../server/doors/smpp/smppStatus.js';
import type { SmppSubmissions } from '../../server/doors/smpp/smppSubmissions.js';
import { silentLogger } from '../../server/logging/logger.js';
import { everyoneIsTheOwner } from '../support/everyoneIsTheOwner.js';
import { pollUntil } from '../support/pollUntil.js';
import { connectSmpp, type SmppClient } from './support/smppClient.js';

const answersOk = { request: async () => ({ status: SmppStatus.ESME_ROK }) } as unknown as SmppSubmissions;

/** An enquire_link PDU (§4.11.1): the 16-octet header alone. */
function enquireLink(sequence: number): Buffer {
  const pdu = Buffer.alloc(16);
  pdu.writeUInt32BE(16, 0);
  pdu.writeUInt32BE(0x00000015, 4);
  pdu.writeUInt32BE(sequence, 12);
  return pdu;
}

describe('the SMPP server limits', () => {
  let clock: ManualClock;
  let server: SmppServer;
  let sessions: Set<SmppSession>;
  const opened: { destroy(): void }[] = [];

  beforeEach(async () => {
    clock = new ManualClock();
    sessions = new Set();
    server = await startSmppServer(
      { host: '127.0.0.1', port: 0 },
      {
        accessControl: everyoneIsTheOwner,
        clock,
        submissions: answersOk,
        recordSubmission: () => undefined,
        receiverReady: () => undefined,
        sessions,
        logger: silentLogger,
        maxConnections: 3,
        listenError: (error) => error,
      },
    );
  });

  afterEach(async () => {
    for (const client of opened.splice(0)) client.destroy();
    await server.close();
  });

  const client = async (): Promise<SmppClient> => {
    const connected = await connectSmpp(server.port);
    opened.push(connected);
    return connected;
  };

  it('closes a connection past the cap at once, and takes one again when a place is free', async () => {
    const first = await client();
    await client();
    await client();
    const fourth = await client();
    await fourth.closed;
    first.destroy();
    await pollUntil(() => sessions.size === 2, { what: 'the first connection to end' });
    const again = await client();
    expect((await again.request('bind_transceiver', { system_id: 'a', password: 'b' }))?.command_status).toBe(
      SmppStatus.ESME_ROK,
    );
  });

  it('closes a connection that does not bind within the bind timeout', async () => {
    const idle = await client();
    await pollUntil(() => sessions.size === 1, { what: 'the session' });
    await clock.advance(defaultSessionLimits.bindTimeoutMs - 1);
    expect(sessions.size).toBe(1);
    await clock.advance(1);
    await idle.closed;
  });

  it('closes a bound connection whose PDU claims more octets than ever come', async () => {
    const bound = await client();
    expect((await bound.request('bind_transceiver', { system_id: 'a', password: 'b' }))?.command_status).toBe(
      0,
    );
    const partial = Buffer.alloc(20);
    partial.writeUInt32BE(100, 0);
    bound.writeRaw(partial);
    await pollUntil(() => clock.pendingTimers >= 2, { what: 'the frame timer' });
    await clock.advance(defaultSessionLimits.frameTimeoutMs - 1);
    expect(sessions.size).toBe(1);
    await clock.advance(1);
    await bound.closed;
  });

  it('asks a quiet bound client enquire_link, and ends the session when that goes unanswered', async () => {
    const bound = await client();
    expect((await bound.request('bind_transceiver', { system_id: 'a', password: 'b' }))?.command_status).toBe(
      0,
    );
    await clock.advance(defaultSessionLimits.quietMs);
    // The smpp client does not answer enquire_link on its own: the session ends a timeout later.
    await clock.advance(defaultSessionLimits.responseTimeoutMs);
    await bound.closed;
  });

  it('stops reading from a client that sends without reading, and reads on once it has read', async () => {
    // A socket whose peer reads nothing: writes stay queued until `drain` is called. The
    // kernel's buffers would hide this on loopback, so the socket's far end is played here.
    const pending: (() => void)[] = [];
    const socket = new Duplex({
      read: () => undefined,
      write: (_chunk, _encoding, done) => {
        pending.push(done);
      },
    });
    const session = new SmppSession(
      socket as unknown as Socket,
      {
        bind: async () => ({ status: SmppStatus.ESME_ROK }),
        request: async () => ({ status: SmppStatus.ESME_ROK }),
        canTakeDeliveries: () => undefined,
        closed: () => undefined,
      },
      clock,
      silentLogger,
    );
    expect(session.caller).toBeUndefined();
    const perChunk = 1_000;
    let sent = 0;
    while (!socket.isPaused() && sent < 100 * perChunk) {
      socket.push(
        Buffer.concat(Array.from({ length: perChunk }, (_unused, index) => enquireLink(sent + index + 1))),
      );
      sent += perChunk;
      await new Promise((resolve) => setImmediate(resolve));
    }
    // 16 octets per answer: it stopped reading soon after 256 KiB of answers waited.
    expect(socket.isPaused()).toBe(true);
    expect(socket.writableLength).toBeGreaterThan(defaultSessionLimits.maxQueuedBytes);
    expect(sent * 16).toBeLessThan(2 * defaultSessionLimits.maxQueuedBytes);
    // The peer reads everything: the session reads on.
    await pollUntil(
      () => {
        // Each answer is a write of its own, taken one after the other.
        for (let done = pending.shift(); done; done = pending.shift()) done();
        return !socket.isPaused();
      },
      { what: 'reading to resume' },
    );
  });
});
