/**
 * Replays every exchange of every recorded transcript against a real AtSession (over a
 * MemoryLink, on a ManualClock) and checks what comes out through the reply parsers: the
 * session strips echo and final results, routes unsolicited lines, and the parsers read the
 * quirky replies. Each exchange runs whole-line and byte-by-byte.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { type AtCommandOptions, AtSession, type UnsolicitedCode } from '../../server/devices/at/atSession.js';
import {
  chooseCnmiSettings,
  parseCmglPdu,
  parseCmgrPdu,
  parseCmgs,
  parseCnmiOptions,
  parseCpin,
  parseCpmsOptions,
  parseCpmsUsage,
  parseCsca,
  parseRegistration,
} from '../../server/devices/at/parsers.js';
import { createMemoryLink } from '../../server/devices/transport/memoryTransport.js';
import { ErrorCode, type GatewayError, isGatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import {
  loadTranscript,
  stepsOf,
  type TranscriptExchange,
  TranscriptReplayer,
} from '../support/transcriptReplay.js';

interface StepResult {
  command: string;
  lines?: string[];
  error?: GatewayError;
}

interface Outcome {
  results: StepResult[];
  urcs: UnsolicitedCode[];
}

/** Stands in for "<PDU>" in transcripts that do not record the SMS-SUBMIT they sent. */
const SAMPLE_PDU = '0031000B916407281553F80000AA0AE8329BFD4697D9EC37';
/** The waits the modem driver gives a send by default (`defaultModemTiming`). */
const SEND_WAITS = { promptTimeoutMs: 10_000, resultTimeoutMs: 60_000 };

/** What a driver passes: Wavecom answers AT+CPIN? without a final OK. */
function optionsFor(command: string): AtCommandOptions {
  return command.toUpperCase() === 'AT+CPIN?' ? { completeOnLine: /^\+CPIN:/ } : {};
}

async function replay(exchange: TranscriptExchange, chunkSize: number | undefined) {
  const clock = new ManualClock();
  const link = createMemoryLink('transcript');
  const session = new AtSession(link.host, { clock, logger: silentLogger });
  const urcs: UnsolicitedCode[] = [];
  session.onUnsolicited((code) => urcs.push(code));
  await session.open();
  const replayer = new TranscriptReplayer(link.device, exchange, { chunkSize });
  await replayer.start();
  await clock.advance(0);
  const results: StepResult[] = [];
  for (const step of stepsOf(exchange)) {
    const pending = step.sendsPdu
      ? session.sendPdu(step.command, step.pdu ?? SAMPLE_PDU, SEND_WAITS)
      : session.execute(step.command, optionsFor(step.command));
    let result: StepResult | undefined;
    pending.then(
      (response) => {
        result = { command: step.command, lines: response.lines };
      },
      (error: unknown) => {
        if (!isGatewayError(error)) throw error;
        result = { command: step.command, error };
      },
    );
    // Moves the clock in small steps until the step settles (the grace after completeOnLine
    // needs time to pass); a missing reply ends in AtTimeout after the default 10 s.
    for (let round = 0; round < 200 && !result; round++) await clock.advance(100);
    if (!result) throw new Error(`${step.command} never settled`);
    results.push(result);
  }
  await clock.advance(0);
  await session.close();
  return { outcome: { results, urcs }, replayer };
}

function linesOf(outcome: Outcome, step: number): string[] {
  const result = outcome.results[step];
  if (!result?.lines) throw new Error(`step ${step} (${result?.command}) failed: ${result?.error?.message}`);
  return result.lines;
}

function errorOf(outcome: Outcome, step: number): GatewayError {
  const result = outcome.results[step];
  if (!result?.error) throw new Error(`step ${step} (${result?.command}) was expected to fail`);
  return result.error;
}

const urcNames = (outcome: Outcome) => outcome.urcs.map((code) => code.name);

/** Per transcript file, per exchange title (prefix): what the exchange must yield. */
const expectations: Record<string, Record<string, (outcome: Outcome) => void>> = {
  'cmgl-listings-pdu-and-text.txt': {
    'PDU mode': (outcome) => {
      const entries = parseCmglPdu(linesOf(outcome, 0));
      expect(entries.map(({ index, stat, length }) => ({ index, stat, length }))).toEqual([
        { index: 0, stat: 0, length: 35 },
        { index: 1, stat: 1, length: 161 },
        { index: 2, stat: 1, length: 159 },
      ]);
      expect(entries[0]?.pdu).toBe(
        '07917248014000F3240B917247587706F400003110824115248012C8329BFD06C9C373B8B82C97E741F034',
      );
      expect(entries[2]?.pdu.endsWith('30D88C2693B900')).toBe(true);
    },
    // The gateway reads PDU mode only: a text listing must still come back line for line.
    'text mode': (outcome) => {
      const lines = linesOf(outcome, 0);
      expect(lines).toHaveLength(6);
      expect(lines.filter((line) => line.startsWith('+CMGL: '))).toHaveLength(3);
      expect(lines[1]).toBe('Hello raspberry pi');
      expect(lines[3]).toContain("Don't just recharge SUPACHARGE");
    },
    'this modem answers ERROR': (outcome) => {
      expect(errorOf(outcome, 0).code).toBe(ErrorCode.AtError);
    },
  },
  'gammu-echo-on-dumps.txt': {
    'tests/at-creg/huawei.dump': (outcome) => {
      const lines = linesOf(outcome, 0);
      expect(lines).toHaveLength(1);
      expect(parseRegistration(lines[0] ?? '', 'query')).toEqual({
        n: 2,
        stat: 1,
        registered: true,
        roaming: false,
        lac: '4CA',
        ci: '81DE445',
      });
    },
    'tests/at-creg/sierra312u.dump': (outcome) => {
      expect(parseRegistration(linesOf(outcome, 0)[0] ?? '', 'query')).toEqual({
        n: 2,
        stat: 5,
        registered: true,
        roaming: true,
        lac: '2AF5',
        ci: '0B88E350',
        act: 2,
      });
    },
    'tests/at-creg-corner/mismatched-quotes.dump': (outcome) => {
      expect(parseRegistration(linesOf(outcome, 0)[0] ?? '', 'query')).toMatchObject({
        n: 2,
        stat: 1,
        lac: '0B',
        ci: '0100701',
        act: 7,
      });
    },
    'tests/at-cpms/alcatel-s320.dump': (outcome) => {
      const memories = ['SM', 'ME', 'SM_P', 'ME_P', 'MT'];
      expect(parseCpmsOptions(linesOf(outcome, 0))).toEqual({
        mem1: memories,
        mem2: memories,
        mem3: memories,
      });
    },
    'tests/at-cpms/samsung-j700.dump': (outcome) => {
      expect(parseCpmsOptions(linesOf(outcome, 0))).toEqual({ mem1: [], mem2: [], mem3: [] });
    },
    'tests/at-cpms/brovi-e3372-325.dump': (outcome) => {
      expect(parseCpmsOptions(linesOf(outcome, 0))).toEqual({
        mem1: ['SM', 'ME'],
        mem2: ['SM', 'ME'],
        mem3: ['SM', 'ME'],
      });
    },
    'tests/at-cnmi/01.dump': (outcome) => {
      const options = parseCnmiOptions(linesOf(outcome, 0));
      expect(options).toEqual({ mode: [2], mt: [0, 1, 3], bm: [0, 2], ds: [0, 1], bfr: [0] });
      if (!options) return;
      expect(chooseCnmiSettings(options)).toEqual({ mode: 2, mt: 1, bm: 0, ds: 1, bfr: 0 });
    },
    'tests/at-sms-txt-detail/m2m.dump': (outcome) => {
      expect(linesOf(outcome, 0)).toEqual([
        '+CMGR: "REC READ","3473065111",,"06/05/28,18:15:41+80",129,17,0,18,"+393492001157",145,6',
        'hello.',
      ]);
    },
    'tests/at-sms-txt/motorola-long.dump': (outcome) => {
      const lines = linesOf(outcome, 0);
      expect(lines[0]).toBe('+CMGR: "REC READ", "+6667776667744", "2009/8/18,19:11:45"');
      expect(lines.slice(1)).toHaveLength(4);
      expect(lines[1]).toMatch(/^Hoewfliepl /);
      expect(lines[4]).toBe('Noytaj. ');
    },
    'tests/at-sms/39.dump': (outcome) => {
      const read = parseCmgrPdu(linesOf(outcome, 0));
      expect(read).toMatchObject({ length: 92 });
      expect(read?.stat).toBeUndefined();
      expect(read?.pdu.startsWith('07914336120011F10404A14949')).toBe(true);
    },
    'tests/at-sms/38.dump': (outcome) => {
      expect(parseCmgrPdu(linesOf(outcome, 0))).toEqual({
        length: 24,
        pdu: '079124602009999006B4098106326906F2212041015554402120410155054000',
      });
    },
    'tests/at-smsc-failing/04.dump': (outcome) => {
      expect(parseCsca(linesOf(outcome, 0))).toEqual({ type: 129 });
    },
  },
  'status-report-cdsi-and-broken-cmgr.txt': {
    'send with status report requested': (outcome) => {
      expect(parseCmgs(linesOf(outcome, 0))).toBe(183);
      expect(outcome.urcs).toEqual([{ name: '+CDSI', args: '"SM",3', line: '+CDSI: "SM",3' }]);
      expect(parseCmgrPdu(linesOf(outcome, 1))).toEqual({
        stat: 0,
        length: 24,
        pdu: '07917248014000F506B70AA18092020000317071518590803170715185418000',
      });
      expect(linesOf(outcome, 2)).toEqual([]);
    },
    'ZTE: empty <stat>': (outcome) => {
      expect(urcNames(outcome)).toEqual(['+CDSI']);
      expect(outcome.urcs[0]?.args).toBe('"SM",1');
      expect(parseCmgrPdu(linesOf(outcome, 0))).toEqual({
        length: 27,
        pdu: '0297F1061C0F910B487228297020F5317062419272803170624192138000',
      });
    },
    'status report with non-BCD timezone nibble': (outcome) => {
      expect(parseCmgrPdu(linesOf(outcome, 0))).toEqual({
        stat: 1,
        length: 26,
        pdu: '0006230E9126983575169498610103409544C26101034095448200',
      });
    },
  },
  'vendor-nonstandard-replies.txt': {
    'Huawei E1752 +CLAC': (outcome) => {
      expect(linesOf(outcome, 0)).toEqual(['&C', '&D', '&F', 'E', '+CMGS', '+CMGL']);
    },
    'Huawei E1752': (outcome) => {
      expect(errorOf(outcome, 0).code).toBe(ErrorCode.AtError);
    },
    'Wavecom: no OK after +CPIN': (outcome) => {
      expect(parseCpin(linesOf(outcome, 0))).toEqual({ code: 'READY', ready: true });
    },
    'Wavecom: nested CPMS list': (outcome) => {
      expect(parseCpmsOptions(linesOf(outcome, 0))).toEqual({
        mem1: ['SM', 'BM', 'SR'],
        mem2: ['SM'],
        mem3: [],
      });
      expect(errorOf(outcome, 1).code).toBe(ErrorCode.AtError);
      expect(parseCpmsUsage(linesOf(outcome, 2))).toEqual([
        { used: 14, total: 50 },
        { used: 14, total: 50 },
      ]);
    },
    'ZTE K3565-Z: +CFUN? in test format': (outcome) => {
      expect(linesOf(outcome, 0)).toEqual(['+CFUN: (0-1,4-7),(0-1)']);
    },
    'older Telit: trailing comma': (outcome) => {
      expect(linesOf(outcome, 0)).toEqual(['+CMGD: (1,2,3,4,5,),(0-4)']);
    },
    'some Huawei: range instead of index list': (outcome) => {
      expect(linesOf(outcome, 0)).toEqual(['+CMGD: (1-4095),(0-4)']);
    },
  },
  'zte-k3565z-unsolicited-during-cmgs.txt': {
    'send one SMS in PDU mode': (outcome) => {
      expect(parseCmgs(linesOf(outcome, 0))).toBe(0);
      expect(urcNames(outcome)).toEqual(['+ZDONR', '+ZPASR', '+ZDONR', '+ZPASR', '+ZDONR', '+ZPASR']);
      expect(outcome.urcs[4]?.args).toBe('"METEOR",272,3,"CS_PS","ROAM_OFF"');
    },
  },
};

/** The longest registered title prefix wins ("Huawei E1752 +CLAC" over "Huawei E1752"). */
function expectationFor(file: string, title: string): ((outcome: Outcome) => void) | undefined {
  const table = expectations[file] ?? {};
  const key = Object.keys(table)
    .filter((prefix) => title.startsWith(prefix))
    .sort((a, b) => b.length - a.length)[0];
  return key === undefined ? undefined : table[key];
}

const files = readdirSync(fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url)))
  .filter((name) => name.endsWith('.txt'))
  .sort();

describe('recorded transcripts', () => {
  it('has all five transcripts', () => {
    expect(files).toEqual(Object.keys(expectations).sort());
  });

  for (const file of files) {
    const transcript = loadTranscript(file);
    describe(file, () => {
      for (const exchange of transcript.exchanges) {
        it.each([
          ['line by line', undefined],
          ['byte by byte', 1],
        ])(`replays "${exchange.title}" %s`, async (_mode, chunkSize) => {
          const check = expectationFor(file, exchange.title);
          expect(check, `no expectation for "${exchange.title}"`).toBeDefined();
          const { outcome, replayer } = await replay(exchange, chunkSize);
          expect(replayer.mismatches).toEqual([]);
          expect(replayer.remaining).toEqual([]);
          check?.(outcome);
        });
      }
    });
  }
});
