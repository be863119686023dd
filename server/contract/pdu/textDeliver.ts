import type { DecodedDeliver } from './types.js';

/**
 * An SMS a device hands over already decoded (a HiLink stick, an Android phone: they reassemble
 * long messages themselves) becomes a deliver the inbox takes like one read from a PDU.
 */
export function deliverOfText(
  sender: string,
  text: string,
  epochMs: number,
  timezoneOffsetMinutes?: number,
): DecodedDeliver {
  const international = sender.startsWith('+');
  const numeric = /^\+?\d+$/.test(sender);
  const gsm7 = /^[\x20-\x7e\n\r]*$/.test(text);
  return {
    type: 'deliver',
    sender: {
      number: sender,
      type: international ? 'international' : numeric ? 'unknown' : 'alphanumeric',
      typeOfAddress: international ? 0x91 : numeric ? 0x81 : 0xd0,
    },
    timestamp: {
      epochMs,
      timezoneOffsetMinutes: timezoneOffsetMinutes ?? -new Date(epochMs).getTimezoneOffset(),
    },
    protocolId: 0,
    dataCodingScheme: gsm7 ? 0x00 : 0x08,
    statusReportIndication: false,
    moreMessagesToSend: false,
    replyPath: false,
    encoding: gsm7 ? 'gsm7' : 'ucs2',
    text,
    bytes: new Uint8Array(),
    headerElements: [],
  };
}
