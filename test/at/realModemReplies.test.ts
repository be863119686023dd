/**
 * Every reply in test/fixtures/modem-replies goes through our parser and must read as the
 * fixture says; the fixtures name the modem and the upstream file each reply comes from.
 */
import { describe, expect, it } from 'vitest';
import {
  parseCfun,
  parseCpin,
  parseCscs,
  parseIccid,
  parseOfferedValues,
  parseRegistration,
} from '../../server/devices/at/parsers.js';
import { parseCpmsOptions, parseCsca } from '../../server/devices/at/smsReplies.js';
import {
  type RegistrationDomain,
  RegistrationDomains,
  technologiesOfWs46,
} from '../../server/devices/modem/networkState.js';
import { decodeUssdString, parseCusd } from '../../server/devices/modem/ussdCodec.js';
import {
  cfunReplies,
  cpmsReplies,
  cscaReplies,
  cscsReplies,
  cusdReplies,
  iccidReplies,
  pinReplies,
  registrationReplies,
  ws46Replies,
} from '../support/modemReplyFixtures.js';

function domainOf(line: string): RegistrationDomain {
  const domain = RegistrationDomains.find((name) => line.startsWith(`${name}:`));
  if (!domain) throw new Error(`not a registration line: ${line}`);
  return domain;
}

describe('registration lines of real modems', () => {
  it.each(registrationReplies().map((reply) => [reply.modem, reply.line, reply] as const))(
    '%s: %s',
    (_modem, line, reply) => {
      const parsed = parseRegistration(line, reply.sent, domainOf(line));
      expect(parsed).toBeDefined();
      const { registered: _registered, roaming: _roaming, ...fields } = parsed ?? { stat: -1 };
      expect(fields).toEqual(reply.expect);
    },
  );
});

describe('AT+WS46=? answers of real modems', () => {
  it.each(ws46Replies().map((reply) => [reply.modem, reply.lines.join(' '), reply] as const))(
    '%s: %s',
    (_modem, _lines, reply) => {
      expect(technologiesOfWs46(parseOfferedValues(reply.lines, '+WS46')) ?? null).toEqual(reply.expect);
    },
  );
});

describe('ICCIDs as real SIMs report them', () => {
  it.each(iccidReplies().map((reply) => [reply.modem, reply.line, reply] as const))(
    '%s: %s',
    (_modem, line, reply) => {
      expect(parseIccid([line]) ?? null).toBe(reply.expect);
    },
  );
});

describe('AT+CPIN? answers of real modems', () => {
  it.each(pinReplies().map((reply) => [reply.modem, reply.line, reply] as const))(
    '%s: %s',
    (_modem, line, reply) => {
      expect(parseCpin([line])?.code ?? null).toBe(reply.expect);
    },
  );
});

describe('AT+CSCA? answers of real modems', () => {
  it.each(cscaReplies().map((reply) => [reply.modem, reply.line, reply] as const))(
    '%s: %s',
    (_modem, line, reply) => {
      expect(parseCsca([line])?.address).toBe(reply.expect);
    },
  );
});

describe('AT+CPMS=? answers of real modems', () => {
  it.each(cpmsReplies().map((reply) => [reply.modem, reply.line, reply] as const))(
    '%s: %s',
    (_modem, line, reply) => {
      const options = parseCpmsOptions([line]);
      expect([options?.mem1, options?.mem2, options?.mem3]).toEqual(reply.expect);
    },
  );
});

describe('USSD answers of real modems', () => {
  it.each(cusdReplies().map((reply) => [reply.modem, reply.line, reply] as const))(
    '%s: %s',
    (_modem, line, reply) => {
      const result = parseCusd(line.replace(/^\+CUSD:/, ''));
      expect(result?.status).toBe(reply.expect.status);
      const text = decodeUssdString(result?.text ?? '', result?.dcs ?? 15, reply.form, reply.charset);
      expect(text.startsWith(reply.expect.starts)).toBe(true);
      expect(text.endsWith(reply.expect.ends)).toBe(true);
    },
  );
});

describe('radio power and character set answers of real modems', () => {
  it.each(cfunReplies().map((reply) => [reply.modem, reply.lines.join(' '), reply] as const))(
    '%s: %s',
    (_modem, _lines, reply) => {
      expect(parseCfun(reply.lines) ?? null).toBe(reply.expect);
    },
  );

  it.each(cscsReplies().map((reply) => [reply.modem, reply.lines.join(' '), reply] as const))(
    '%s: %s',
    (_modem, _lines, reply) => {
      expect(parseCscs(reply.lines)).toBe(reply.expect);
    },
  );
});
