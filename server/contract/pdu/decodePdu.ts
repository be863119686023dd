/** The decoder's entry point: SMSC field, then the TPDU by its message type. */
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import { readSmscField } from './address.js';
import { readDeliver } from './deliver.js';
import { FirstOctet, MessageTypeIndicator } from './firstOctet.js';
import { hexToBytes } from './hex.js';
import { OctetReader } from './octetReader.js';
import { readStatusReport } from './statusReport.js';
import { readSubmit } from './submit.js';
import type { DecodedPdu, DecodeOptions } from './types.js';

function decodeTpdu(reader: OctetReader, hasSmsc: boolean): DecodedPdu {
  const smsc = hasSmsc ? readSmscField(reader) : undefined;
  const firstOctet = reader.readOctet('first octet');
  // TP-MTI as read from a modem (TS 23.040 §9.2.3.1, MS side): 0 DELIVER, 1 SUBMIT (from the
  // "sent" storage), 2 STATUS-REPORT; 3 is reserved.
  switch (firstOctet & FirstOctet.MessageTypeMask) {
    case MessageTypeIndicator.Deliver:
      return readDeliver(reader, firstOctet, smsc);
    case MessageTypeIndicator.Submit:
      return readSubmit(reader, firstOctet, smsc);
    case MessageTypeIndicator.StatusReport:
      return readStatusReport(reader, firstOctet, smsc);
    default:
      throw new GatewayError(ErrorCode.PduUnsupported, 'TP-MTI 3 is reserved', { field: 'TP-MTI' });
  }
}

/**
 * Decodes PDU hex as AT+CMGR / +CMGL / +CMT / +CDS give it. Every failure is a GatewayError
 * (PduMalformed or PduUnsupported): all reads go through OctetReader's bounds checks, which
 * the fuzz tests in test/pdu/fuzz.test.ts exercise without any catch-all here to hide a slip.
 */
export function decodePdu(hex: string, options: DecodeOptions = {}): DecodedPdu {
  return decodeTpdu(new OctetReader(hexToBytes(hex.trim())), options.hasSmsc ?? true);
}
