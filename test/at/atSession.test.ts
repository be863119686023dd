import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import {
  AtSession,
  type AtSessionOptions,
  redactSecrets,
  type UnsolicitedCode,
} from '../../server/devices/at/atSession.js';
import { createMemoryLink } from '../../server/devices/transport/memoryTransport.js';
import { ErrorCode, GatewayError, isGatewayError } from '../../server/errors/gatewayError.js';
import { createLogger, type LogRecord, silentLogger } from '../../server/logging/logger.js';

/** The waits the modem driver gives a send by default (`defaultModemTiming`). */
const sendWaits = { promptTimeoutMs: 10_000, resultTimeoutMs: 60_000 };

async function setup(options: Partial<AtSessionOptions> = {}) {
  const clock = new ManualClock();
  const link = createMemoryLink('test-modem');
  const written: string[] = [];
  await link.device.open();
  link.device.onData((chunk) => written.push(chunk.toString('latin1')));
  const session = new AtSession(link.host, { clock, logger: silentLogger, ...options });
  const urcs: UnsolicitedCode[] = [];
  session.onUnsolicited((code) => urcs.push(code));
  await session.open();
  /** Lets queued writes and replies cross the link. */
  const flush = () => clock.advance(0);
  const reply = async (text: string) => {
    await link.device.write(text);
    await flush();
  };
  return { clock, link, session, written, urcs, flush, reply };
}

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
  throw new Error('expected the promise to reject');
}

describe('AtSession', () => {
  it('resolves with the information lines, echo and OK stripped', async () => {
    const { session, written, reply, flush } = await setup();
    const response = session.execute('AT+CSQ');
    await flush();
    expect(written).toEqual(['AT+CSQ\r']);
    await reply('AT+CSQ\r\r\n+CSQ: 20,99\r\n\r\nOK\r\n');
    await expect(response).resolves.toEqual({ lines: ['+CSQ: 20,99'] });
  });

  it('writes a queued command only after the one in flight has finished, in call order', async () => {
    const { session, written, reply, flush } = await setup();
    const first = session.execute('AT+CGMI');
    const second = session.execute('AT+CGMM');
    await flush();
    expect(written).toEqual(['AT+CGMI\r']);
    await reply('Quectel\r\nOK\r\n');
    expect(written).toEqual(['AT+CGMI\r', 'AT+CGMM\r']);
    await reply('EC25\r\nOK\r\n');
    await expect(first).resolves.toEqual({ lines: ['Quectel'] });
    await expect(second).resolves.toEqual({ lines: ['EC25'] });
  });

  it('routes a +CMTI that arrives mid-command to the listeners and keeps it out of the response', async () => {
    const { session, urcs, reply, flush } = await setup();
    const response = session.execute('AT+CMGL=4');
    await flush();
    await reply('+CMGL: 0,0,,35\r\n+CMTI: "SM",3\r\n07917248014000F3\r\nOK\r\n');
    await expect(response).resolves.toEqual({ lines: ['+CMGL: 0,0,,35', '07917248014000F3'] });
    expect(urcs).toEqual([{ name: '+CMTI', args: '"SM",3', line: '+CMTI: "SM",3' }]);
  });

  it('does not let a registration URC complete or pollute the command in flight', async () => {
    const { session, urcs, reply, flush } = await setup();
    const response = session.execute('AT+CSQ');
    await flush();
    await reply('+CREG: 1,"4CA","81DE445"\r\n+CSQ: 18,99\r\nOK\r\n');
    await expect(response).resolves.toEqual({ lines: ['+CSQ: 18,99'] });
    expect(urcs.map((code) => code.name)).toEqual(['+CREG']);
  });

  it('delivers a +CMT header together with the PDU line that follows it', async () => {
    const { urcs, reply } = await setup();
    await reply(
      '\r\n+CMT: ,24\r\n07911326040000F0040B911346610089F60000208062917314080CC8F71D14969741F977FD07\r\n',
    );
    expect(urcs).toEqual([
      {
        name: '+CMT',
        args: ',24',
        line: '+CMT: ,24',
        pdu: '07911326040000F0040B911346610089F60000208062917314080CC8F71D14969741F977FD07',
      },
    ]);
  });

  it('keeps a +CMT PDU line that arrives mid-command out of the response', async () => {
    const { session, urcs, reply, flush } = await setup();
    const response = session.execute('AT+CSQ');
    await flush();
    await reply('+CMT: "",22\r\n0791447758100650040C9144\r\n+CSQ: 14,99\r\nOK\r\n');
    await expect(response).resolves.toEqual({ lines: ['+CSQ: 14,99'] });
    expect(urcs).toEqual([
      { name: '+CMT', args: '"",22', line: '+CMT: "",22', pdu: '0791447758100650040C9144' },
    ]);
  });

  it('delivers a PDU-mode +CDS status report with its PDU', async () => {
    const { urcs, reply } = await setup();
    await reply('+CDS: 25\r\n07917248014000F506B70AA180920200003170715185908031\r\n');
    expect(urcs).toEqual([
      {
        name: '+CDS',
        args: '25',
        line: '+CDS: 25',
        pdu: '07917248014000F506B70AA180920200003170715185908031',
      },
    ]);
  });

  it('rejects with AtError on ERROR', async () => {
    const { session, reply, flush } = await setup();
    const outcome = rejection(session.execute('AT+WIND?'));
    await flush();
    await reply('COMMAND NOT SUPPORT\r\n');
    expect((await outcome).code).toBe(ErrorCode.AtError);
  });

  it('rejects with CmeError carrying the modem code', async () => {
    const { session, reply, flush } = await setup();
    const outcome = rejection(session.execute('AT+CPIN?'));
    await flush();
    await reply('+CME ERROR: 10\r\n');
    const error = await outcome;
    expect(error.code).toBe(ErrorCode.CmeError);
    expect(error.modemCode).toBe(10);
  });

  it('times out on the clock with the partial response and the command named', async () => {
    const { session, clock, reply, flush } = await setup({ defaultTimeoutMs: 5_000 });
    const outcome = rejection(session.execute('AT+COPS=?'));
    await flush();
    await reply('+COPS: (2,"Vodafone","VF","23415",7)\r\n');
    await clock.advance(4_999);
    expect(clock.pendingTimers).toBeGreaterThan(0);
    await clock.advance(1);
    const error = await outcome;
    expect(error.code).toBe(ErrorCode.AtTimeout);
    expect(error.partialResponse).toEqual(['+COPS: (2,"Vodafone","VF","23415",7)']);
    expect(error.message).toContain('AT+COPS=?');
  });

  it('honours a per-command timeout', async () => {
    const { session, clock } = await setup({ defaultTimeoutMs: 5_000 });
    const outcome = rejection(session.execute('AT+CMGL=4', { timeoutMs: 30_000 }));
    await clock.advance(29_999);
    await clock.advance(1);
    expect((await outcome).code).toBe(ErrorCode.AtTimeout);
  });

  it('waits for a quiet line after a timeout on a line that never answered a resync probe (no take-over)', async () => {
    const { session, clock, written, reply } = await setup({ defaultTimeoutMs: 1_000, resyncQuietMs: 500 });
    const slow = rejection(session.execute('AT+COPS=?'));
    await clock.advance(1_000);
    expect((await slow).code).toBe(ErrorCode.AtTimeout);
    const next = session.execute('AT+CSQ');
    await clock.advance(100);
    // The timed-out command's answer arrives late: it must be discarded, not given to AT+CSQ.
    await reply('+COPS: (2,"Vodafone","VF","23415",7)\r\nOK\r\n');
    expect(written).toEqual(['AT+COPS=?\r']);
    await clock.advance(500);
    expect(written).toEqual(['AT+COPS=?\r', 'AT+CSQ\r']);
    await reply('+CSQ: 12,99\r\nOK\r\n');
    await expect(next).resolves.toEqual({ lines: ['+CSQ: 12,99'] });
  });

  it('drops a final result that arrives with no command in flight (review 11)', async () => {
    const { session, written, reply, flush } = await setup();
    // A refusal owed to a command nobody waits for any more, while the line is idle.
    await reply('\r\n+CMS ERROR: 321\r\n\r\nERROR\r\n');
    const send = session.sendPdu('AT+CMGS=18', '0011000B91', sendWaits);
    await flush();
    expect(written).toEqual(['AT+CMGS=18\r']);
    await reply('\r\n> ');
    await reply('\r\n+CMGS: 7\r\n\r\nOK\r\n');
    await expect(send).resolves.toEqual({ lines: ['+CMGS: 7'] });
  });

  it('drops lines collected before the command echo: they belonged to an earlier command', async () => {
    const { session, reply, flush } = await setup();
    const response = session.execute('AT+CSQ');
    await flush();
    await reply('+COPS: 0,0,"late"\r\nAT+CSQ\r+CSQ: 9,99\r\nOK\r\n');
    await expect(response).resolves.toEqual({ lines: ['+CSQ: 9,99'] });
  });

  it('completes on a matching line when the modem leaves out OK (Wavecom AT+CPIN?)', async () => {
    const { session, clock, written, reply, flush } = await setup({ completeOnLineGraceMs: 300 });
    const response = session.execute('AT+CPIN?', { completeOnLine: /^\+CPIN:/ });
    await flush();
    await reply('+CPIN: READY\r\n');
    await expect(response).resolves.toEqual({ lines: ['+CPIN: READY'] });
    const next = session.execute('AT+CSQ');
    // A modem that does send the OK after all must not complete AT+CSQ with it.
    await reply('OK\r\n');
    await clock.advance(300);
    expect(written).toEqual(['AT+CPIN?\r', 'AT+CSQ\r']);
    await reply('+CSQ: 31,99\r\nOK\r\n');
    await expect(next).resolves.toEqual({ lines: ['+CSQ: 31,99'] });
  });

  it('sends a PDU after the prompt and resolves with the +CMGS reference line', async () => {
    const { session, written, reply, flush } = await setup();
    const response = session.sendPdu('AT+CMGS=23', '0001010A9110325476', sendWaits);
    await flush();
    expect(written).toEqual(['AT+CMGS=23\r']);
    await reply('\r\n> ');
    expect(written).toEqual(['AT+CMGS=23\r', '0001010A9110325476\x1a']);
    await reply('\r\n+CMGS: 17\r\n\r\nOK\r\n');
    await expect(response).resolves.toEqual({ lines: ['+CMGS: 17'] });
  });

  it('routes URCs that arrive between the PDU and the +CMGS result', async () => {
    const { session, urcs, reply, flush } = await setup();
    const response = session.sendPdu('AT+CMGS=23', '0001010A9110325476', sendWaits);
    await flush();
    await reply('> ');
    await reply('+ZPASR: "UMTS"\r\n+CDSI: "SM",2\r\n+CMGS: 0\r\nOK\r\n');
    await expect(response).resolves.toEqual({ lines: ['+CMGS: 0'] });
    expect(urcs.map((code) => code.name)).toEqual(['+ZPASR', '+CDSI']);
  });

  it('drops the echo of the PDU with echo on', async () => {
    const { session, reply, flush } = await setup();
    const response = session.sendPdu('AT+CMGS=23', '0001010A9110325476', sendWaits);
    await flush();
    await reply('AT+CMGS=23\r\r\n> ');
    await reply('0001010A9110325476\x1a\r\n+CMGS: 5\r\nOK\r\n');
    await expect(response).resolves.toEqual({ lines: ['+CMGS: 5'] });
  });

  it('fails without writing the PDU when +CMS ERROR comes instead of the prompt', async () => {
    const { session, written, reply, flush } = await setup();
    const outcome = rejection(session.sendPdu('AT+CMGS=23', '0001010A9110325476', sendWaits));
    await flush();
    await reply('+CMS ERROR: 330\r\n');
    const error = await outcome;
    expect(error.code).toBe(ErrorCode.CmsError);
    expect(error.modemCode).toBe(330);
    expect(written).toEqual(['AT+CMGS=23\r']);
  });

  it('marks the send failed with the modem code when the network answers +CMS ERROR 500', async () => {
    const { session, reply, flush } = await setup();
    const outcome = rejection(session.sendPdu('AT+CMGS=23', '0001010A9110325476', sendWaits));
    await flush();
    await reply('> ');
    await reply('+CMS ERROR: 500\r\n');
    const error = await outcome;
    expect(error.code).toBe(ErrorCode.CmsError);
    expect(error.modemCode).toBe(500);
  });

  it("writes ESC to abort when the prompt does not come within the send's promptTimeoutMs", async () => {
    const { session, clock, written, flush } = await setup();
    const waits = { promptTimeoutMs: 500, resultTimeoutMs: 60_000 };
    const outcome = rejection(session.sendPdu('AT+CMGS=23', '0001010A9110325476', waits));
    await flush();
    await clock.advance(499);
    let settled = false;
    void outcome.then(() => {
      settled = true;
    });
    await flush();
    expect(settled).toBe(false);
    await clock.advance(1);
    const error = await outcome;
    expect(error.code).toBe(ErrorCode.AtTimeout);
    expect(error.message).toContain('no "> " prompt within 500 ms');
    expect(written).toEqual(['AT+CMGS=23\r', '\x1b']);
  });

  it("waits the send's resultTimeoutMs for the network after the PDU, then times out", async () => {
    const { session, clock, reply, flush } = await setup();
    const waits = { promptTimeoutMs: 2_000, resultTimeoutMs: 60_000 };
    const outcome = rejection(session.sendPdu('AT+CMGS=23', '0001010A9110325476', waits));
    await flush();
    await reply('> ');
    await clock.advance(59_000);
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(1_000);
    const error = await outcome;
    expect(error.code).toBe(ErrorCode.AtTimeout);
    expect(error.message).toContain('no result for the PDU within 60000 ms');
  });

  it('rejects the command in flight and the queued ones with AtSessionClosed on unplug', async () => {
    const { session, link, flush } = await setup();
    const closes: Array<Error | undefined> = [];
    session.onClose((error) => closes.push(error));
    const inFlight = rejection(session.execute('AT+CSQ'));
    const queued = rejection(session.execute('AT+CREG?'));
    await flush();
    link.unplug();
    expect((await inFlight).code).toBe(ErrorCode.AtSessionClosed);
    expect((await queued).code).toBe(ErrorCode.AtSessionClosed);
    expect(session.isOpen).toBe(false);
    expect(closes).toHaveLength(1);
    expect(isGatewayError(closes[0], ErrorCode.TransportClosed)).toBe(true);
  });

  it('rejects pending work with AtSessionClosed on close() and refuses new commands', async () => {
    const { session, link, flush } = await setup();
    const closes: Array<Error | undefined> = [];
    session.onClose((error) => closes.push(error));
    const inFlight = rejection(session.sendPdu('AT+CMGS=23', '00', sendWaits));
    await flush();
    await session.close();
    expect((await inFlight).code).toBe(ErrorCode.AtSessionClosed);
    expect(link.host.isOpen).toBe(false);
    expect(closes).toEqual([undefined]);
    expect((await rejection(session.execute('AT'))).code).toBe(ErrorCode.AtSessionClosed);
  });

  it('rejects with TransportClosed when the command cannot be written', async () => {
    const { session, link } = await setup();
    // The host end stays "open" for the session but refuses writes, as a port mid-unplug does.
    link.host.write = async () => {
      throw new GatewayError(ErrorCode.TransportClosed, 'gone');
    };
    expect((await rejection(session.execute('AT'))).code).toBe(ErrorCode.TransportClosed);
  });

  it('logs raw traffic with direction marks at DEBUG', async () => {
    const records: LogRecord[] = [];
    const logger = createLogger({ level: 'DEBUG', sinks: [(record) => records.push(record)] });
    const { session, reply, flush } = await setup({ logger });
    const response = session.execute('AT');
    await flush();
    await reply('OK\r\n');
    await response;
    const messages = records.map((record) => record.message);
    expect(messages).toContain('» AT\\r');
    expect(messages).toContain('« OK');
  });

  it('logs no raw traffic above DEBUG', async () => {
    const records: LogRecord[] = [];
    const logger = createLogger({ level: 'INFO', sinks: [(record) => records.push(record)] });
    const { session, reply, flush } = await setup({ logger });
    const response = session.execute('AT');
    await flush();
    await reply('OK\r\n');
    await response;
    expect(records).toEqual([]);
  });
});

describe('AT trace redaction', () => {
  it('hides a SIM PIN and PUK from the raw traffic log', () => {
    expect(redactSecrets('AT+CPIN="1234"\r')).toBe('AT+CPIN="****"\r');
    expect(redactSecrets('at+cpin="12345678","0000"\r')).toBe('at+cpin="****"\r');
    expect(redactSecrets('AT+CPIN?\r')).toBe('AT+CPIN?\r');
  });
});

describe('AT command text in errors (security review 1)', () => {
  it('names a PIN command without its PIN when it fails, times out or the session closes', async () => {
    const { session, reply, clock, flush } = await setup({ defaultTimeoutMs: 1_000 });
    const refused = rejection(session.execute('AT+CPIN="7391"'));
    await flush();
    await reply('\r\n+CME ERROR: 14\r\n');
    const timedOut = rejection(session.execute('AT+CPIN="7391"'));
    await clock.advance(1_000);
    await clock.advance(0);
    const closed = rejection(session.execute('AT+CPWD="SC","7391","2468"'));
    await flush();
    await session.close();
    expect((await refused).message).toContain('AT+CPIN="****"');
    expect((await timedOut).message).toContain('AT+CPIN="****"');
    for (const error of [await refused, await timedOut, await closed]) {
      expect(JSON.stringify({ message: error.message, lines: error.partialResponse })).not.toMatch(
        /7391|2468/,
      );
    }
  });

  it('hides the old and new PIN of a PIN change from the raw traffic log', () => {
    expect(redactSecrets('AT+CPWD="SC","1234","5678"\r')).toBe('AT+CPWD="****"\r');
    expect(redactSecrets('AT+CLCK="SC",1,"1234"\r')).toBe('AT+CLCK="****"\r');
  });
});

describe('AtSession with USSD answers over several lines', () => {
  /** AT+CUSD=1 answered OK: the network's +CUSD: answer is awaited. */
  async function askedForUssd() {
    const context = await setup();
    const asked = context.session.execute('AT+CUSD=1,"*100#",15');
    await context.flush();
    await context.reply('\r\nOK\r\n');
    await asked;
    return context;
  }

  it('joins the lines of a +CUSD text until its closing quote', async () => {
    const { urcs, reply } = await askedForUssd();
    await reply('\r\n+CUSD: 0,"Balance: 1.00\r\nValid until May\r\nBye",15\r\n');
    expect(urcs).toEqual([
      {
        name: '+CUSD',
        args: '0,"Balance: 1.00\nValid until May\nBye",15',
        line: '+CUSD: 0,"Balance: 1.00\nValid until May\nBye",15',
      },
    ]);
  });

  it('lets a final result end a +CUSD text that is never closed, and gives the result to the command', async () => {
    const { session, urcs, reply, flush } = await askedForUssd();
    const response = session.execute('AT+CSQ');
    await flush();
    await reply('\r\n+CUSD: 0,"broken\r\n+CSQ: 20,99\r\nOK\r\n');
    expect(urcs.map((code) => code.args)).toEqual(['0,"broken\n+CSQ: 20,99']);
    await expect(response).resolves.toEqual({ lines: [] });
  });

  it('takes a broken +CUSD nobody asked for as one line, leaving the next lines to the command', async () => {
    const { session, urcs, reply, flush } = await setup();
    const response = session.execute('AT+CSQ');
    await flush();
    await reply('\r\n+CUSD: 0,"noise\r\n+CSQ: 20,99\r\nOK\r\n');
    expect(urcs.map((code) => code.args)).toEqual(['0,"noise']);
    await expect(response).resolves.toEqual({ lines: ['+CSQ: 20,99'] });
  });
});
