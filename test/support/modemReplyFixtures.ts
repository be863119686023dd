/**
 * Typed access to test/fixtures/modem-replies/*.json: replies of real modems, each with the
 * upstream file it was copied from (see that folder's README).
 */
import { readFileSync } from 'node:fs';

/** Where a reply was copied from: a key of the file's `sources` and the test or dump in it. */
interface Sourced {
  modem: string;
  source: string;
  origin: string;
}

export interface RegistrationReply extends Sourced {
  line: string;
  sent: 'query' | 'unsolicited';
  expect: { n?: number; stat: number; lac?: string; ci?: string; act?: number };
}

export interface Ws46Reply extends Sourced {
  lines: string[];
  /** Technologies in 2G…5G order, or null when the answer does not say. */
  expect: string[] | null;
}

export interface IccidReply extends Sourced {
  line: string;
  /** The ICCID as we keep it, or null when the reply must be refused. */
  expect: string | null;
}

export interface PinReply extends Sourced {
  line: string;
  /** The <code>, or null when the line is not a PIN state. */
  expect: string | null;
}

export interface CscaReply extends Sourced {
  line: string;
  expect: string;
}

export interface CpmsReply extends Sourced {
  line: string;
  /** The memories offered for <mem1>, <mem2>, <mem3>. */
  expect: [string[], string[], string[]];
}

export interface CusdReply extends Sourced {
  line: string;
  form: 'text' | 'packed-hex';
  /** The modem's TE character set (+CSCS); absent: taken as it comes. */
  charset?: string;
  expect: { status: number; starts: string; ends: string };
}

export interface CfunReply extends Sourced {
  lines: string[];
  /** The <fun> level, or null when the answer is not in the read form. */
  expect: number | null;
}

export interface CscsReply extends Sourced {
  lines: string[];
  expect: string;
}

function load<T>(name: string): T[] {
  const url = new URL(`../fixtures/modem-replies/${name}`, import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { replies: T[] }).replies;
}

export const registrationReplies = (): RegistrationReply[] => load('registration.json');
export const ws46Replies = (): Ws46Reply[] => load('ws46.json');
export const iccidReplies = (): IccidReply[] => load('iccid.json');
export const pinReplies = (): PinReply[] => load('cpin.json');
export const cscaReplies = (): CscaReply[] => load('csca.json');
export const cpmsReplies = (): CpmsReply[] => load('cpms.json');
export const cusdReplies = (): CusdReply[] => load('cusd.json');
export const cfunReplies = (): CfunReply[] => load('cfun.json');
export const cscsReplies = (): CscsReply[] => load('cscs.json');
