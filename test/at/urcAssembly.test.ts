import { describe, expect, it } from 'vitest';
import {
  initialUrcAssembly,
  maxUssdContinuationLines,
  type UnsolicitedCode,
  type UrcAssemblyEvent,
  type UrcAssemblyState,
  urcAssemblyTransition,
} from '../../server/devices/at/urcAssembly.js';

const idle = initialUrcAssembly;
const ussdAwaited: UrcAssemblyState = { ussdAwaited: true };
const line = (text: string, commandInFlight?: string): UrcAssemblyEvent => ({
  type: 'line',
  line: text,
  commandInFlight,
});

const cmtHeader = '+CMT: ,24';
const cmtPdu = '07914477790706520404D0E17A0000228090110381400541F4F29C0E';
const awaitingCmtPdu: UrcAssemblyState = {
  ussdAwaited: false,
  pending: { match: { name: '+CMT', args: ',24', takesNextLine: true }, line: cmtHeader, continuations: 0 },
};
const cdsHeader = '+CDS: 25';
const awaitingCdsPdu: UrcAssemblyState = {
  ussdAwaited: false,
  pending: { match: { name: '+CDS', args: '25', takesNextLine: true }, line: cdsHeader, continuations: 0 },
};
const openUssd = '+CUSD: 1,"Balance: 5 EUR';
const ussdOpen = (continuations = 0, text = openUssd): UrcAssemblyState => ({
  ussdAwaited: true,
  pending: {
    match: { name: '+CUSD', args: text.slice('+CUSD: '.length), takesNextLine: true },
    line: text,
    continuations,
  },
});

interface Row {
  case: string;
  before: UrcAssemblyState;
  event: UrcAssemblyEvent;
  after: UrcAssemblyState;
  emitted: UnsolicitedCode[];
  passOn: boolean;
}

const table: Row[] = [
  {
    case: 'passes a line that is no unsolicited code on to the command',
    before: idle,
    event: line('+CSQ: 20,99', 'AT+CSQ'),
    after: idle,
    emitted: [],
    passOn: true,
  },
  {
    case: 'emits a one-line code at once and keeps it from the command',
    before: idle,
    event: line('+CMTI: "SM",3', 'AT+CSQ'),
    after: idle,
    emitted: [{ name: '+CMTI', args: '"SM",3', line: '+CMTI: "SM",3' }],
    passOn: false,
  },
  {
    case: 'holds a +CMT header until its PDU line',
    before: idle,
    event: line(cmtHeader),
    after: awaitingCmtPdu,
    emitted: [],
    passOn: false,
  },
  {
    case: 'emits the +CMT header with the next line as its PDU, even mid-command',
    before: awaitingCmtPdu,
    event: line(cmtPdu, 'AT+CSQ'),
    after: idle,
    emitted: [{ name: '+CMT', args: ',24', line: cmtHeader, pdu: cmtPdu }],
    passOn: false,
  },
  {
    case: 'holds a PDU-mode +CDS header (a bare length) until its PDU line',
    before: idle,
    event: line(cdsHeader),
    after: awaitingCdsPdu,
    emitted: [],
    passOn: false,
  },
  {
    case: 'takes even a final-result-looking line as the PDU of a pending +CDS',
    before: awaitingCdsPdu,
    event: line('OK', 'AT+CSQ'),
    after: idle,
    emitted: [{ name: '+CDS', args: '25', line: cdsHeader, pdu: 'OK' }],
    passOn: false,
  },
  {
    case: 'emits a text-mode +CDS on its one line',
    before: idle,
    event: line('+CDS: 6,12,"+447700900123",145,"24/01/01,10:00:00+00","24/01/01,10:00:05+00",0'),
    after: idle,
    emitted: [
      {
        name: '+CDS',
        args: '6,12,"+447700900123",145,"24/01/01,10:00:00+00","24/01/01,10:00:05+00",0',
        line: '+CDS: 6,12,"+447700900123",145,"24/01/01,10:00:00+00","24/01/01,10:00:05+00",0',
      },
    ],
    passOn: false,
  },
  {
    case: 'awaits a +CUSD answer once AT+CUSD=1 is written',
    before: idle,
    event: { type: 'commandStarted', command: 'AT+CUSD=1,"*100#",15' },
    after: ussdAwaited,
    emitted: [],
    passOn: false,
  },
  {
    case: 'awaits nothing when another command is written',
    before: idle,
    event: { type: 'commandStarted', command: 'AT+CUSD=2' },
    after: idle,
    emitted: [],
    passOn: false,
  },
  {
    case: 'holds an awaited +CUSD text whose quote is still open',
    before: ussdAwaited,
    event: line(openUssd),
    after: ussdOpen(),
    emitted: [],
    passOn: false,
  },
  {
    case: 'emits a stray +CUSD with an open quote on its one line, not swallowing what follows',
    before: idle,
    event: line(openUssd),
    after: idle,
    emitted: [{ name: '+CUSD', args: '1,"Balance: 5 EUR', line: openUssd }],
    passOn: false,
  },
  {
    case: 'emits an awaited +CUSD closed on its line and awaits no more',
    before: ussdAwaited,
    event: line('+CUSD: 0,"Balance: 5 EUR",15'),
    after: idle,
    emitted: [{ name: '+CUSD', args: '0,"Balance: 5 EUR",15', line: '+CUSD: 0,"Balance: 5 EUR",15' }],
    passOn: false,
  },
  {
    case: 'adds a line to an open +CUSD text while its quote stays open',
    before: ussdOpen(),
    event: line('valid until 31.12.'),
    after: ussdOpen(1, `${openUssd}\nvalid until 31.12.`),
    emitted: [],
    passOn: false,
  },
  {
    case: 'emits the whole +CUSD text when its quote closes',
    before: ussdOpen(),
    event: line('valid until 31.12.",15'),
    after: idle,
    emitted: [
      {
        name: '+CUSD',
        args: '1,"Balance: 5 EUR\nvalid until 31.12.",15',
        line: `${openUssd}\nvalid until 31.12.",15`,
      },
    ],
    passOn: false,
  },
  {
    case: 'ends a +CUSD text that never closed at a final result, which goes on to the command',
    before: ussdOpen(),
    event: line('OK', 'AT+CSQ'),
    after: idle,
    emitted: [{ name: '+CUSD', args: '1,"Balance: 5 EUR', line: openUssd }],
    passOn: true,
  },
  {
    case: `keeps an open +CUSD text going up to ${maxUssdContinuationLines} lines`,
    before: ussdOpen(maxUssdContinuationLines - 2),
    event: line('still no quote'),
    after: ussdOpen(maxUssdContinuationLines - 1, `${openUssd}\nstill no quote`),
    emitted: [],
    passOn: false,
  },
  {
    case: 'emits an open +CUSD text as it stands once it reaches the line limit',
    before: ussdOpen(maxUssdContinuationLines - 1),
    event: line('still no quote'),
    after: idle,
    emitted: [
      { name: '+CUSD', args: '1,"Balance: 5 EUR\nstill no quote', line: `${openUssd}\nstill no quote` },
    ],
    passOn: false,
  },
  {
    case: "leaves a query's own answer to the command (AT+CREG? answers +CREG:)",
    before: idle,
    event: line('+CREG: 2,1', 'AT+CREG?'),
    after: idle,
    emitted: [],
    passOn: true,
  },
  {
    case: 'drops a half-received code when the transport closes, still awaiting USSD',
    before: ussdOpen(),
    event: { type: 'closed' },
    after: ussdAwaited,
    emitted: [],
    passOn: false,
  },
];

describe('the URC assembly', () => {
  it.each(table)('$case', (row) => {
    const step = urcAssemblyTransition(row.before, row.event);
    expect(step.state).toEqual(row.after);
    expect(step.emitted).toEqual(row.emitted);
    expect(step.passOn).toBe(row.passOn);
  });
});
