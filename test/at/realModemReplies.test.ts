/**
 * Every reply in test/fixtures/modem-replies goes through our parser and must read as the
 * fixture says; the fixtures name the modem and the upstream file each reply comes from.
 */
import { describe, expect, it } from 'vitest';
import { parseCpin, parseIccid, parseOfferedValues, parseRegistration } from '../../server/at/parsers.js';
import {
  type RegistrationDomain,
  RegistrationDomains,
  technologiesOfWs46,
} from '../../server/modem/networkState.js';
import { iccidReplies, pinReplies, registrationReplies, ws46Replies } from '../support/modemReplyFixtures.js';

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
