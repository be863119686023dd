/** User data header (TS 23.040 §9.2.3.24): information elements, known ones interpreted. */
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Concatenation, HeaderElement, Ports } from './types.js';

/** Information element identifiers we interpret (TS 23.040 §9.2.3.24). */
export const Iei = {
  Concatenation8: 0x00,
  Ports8: 0x04,
  Ports16: 0x05,
  Concatenation16: 0x08,
  NationalSingleShift: 0x24,
  NationalLockingShift: 0x25,
} as const;

export interface UserDataHeader {
  elements: HeaderElement[];
  concatenation?: Concatenation;
  ports?: Ports;
  lockingShiftLanguage?: number;
  singleShiftLanguage?: number;
}

function octet(data: Uint8Array, index: number): number {
  return data[index] ?? 0;
}

/**
 * §9.2.3.24.1/.8: a part number of 0 or above the count makes the element void, and the
 * receiver ignores it (it stays in `elements`).
 */
function concatenationOf(element: HeaderElement): Concatenation | undefined {
  const { iei, data } = element;
  let concatenation: Concatenation;
  if (iei === Iei.Concatenation8 && data.length === 3) {
    concatenation = {
      reference: octet(data, 0),
      partsCount: octet(data, 1),
      partNumber: octet(data, 2),
      referenceBits: 8,
    };
  } else if (iei === Iei.Concatenation16 && data.length === 4) {
    concatenation = {
      reference: (octet(data, 0) << 8) | octet(data, 1),
      partsCount: octet(data, 2),
      partNumber: octet(data, 3),
      referenceBits: 16,
    };
  } else {
    return undefined;
  }
  const { partsCount, partNumber } = concatenation;
  return partsCount >= 1 && partNumber >= 1 && partNumber <= partsCount ? concatenation : undefined;
}

function portsOf(element: HeaderElement): Ports | undefined {
  const { iei, data } = element;
  if (iei === Iei.Ports8 && data.length === 2) return { destination: octet(data, 0), source: octet(data, 1) };
  if (iei === Iei.Ports16 && data.length === 4) {
    return {
      destination: (octet(data, 0) << 8) | octet(data, 1),
      source: (octet(data, 2) << 8) | octet(data, 3),
    };
  }
  return undefined;
}

/**
 * Parses the elements that follow the UDHL octet. Unknown IEIs are kept raw. When an element
 * repeats, its last occurrence applies (§9.2.3.24).
 */
export function parseUserDataHeader(header: Uint8Array): UserDataHeader {
  const parsed: UserDataHeader = { elements: [] };
  let index = 0;
  while (index < header.length) {
    const iei = octet(header, index);
    const length = header[index + 1];
    if (length === undefined || index + 2 + length > header.length) {
      throw new GatewayError(
        ErrorCode.PduMalformed,
        `UDH element 0x${iei.toString(16)} overruns the header`,
        {
          field: 'udh',
        },
      );
    }
    const element: HeaderElement = { iei, data: header.slice(index + 2, index + 2 + length) };
    parsed.elements.push(element);
    index += 2 + length;

    const concatenation = concatenationOf(element);
    if (concatenation !== undefined) parsed.concatenation = concatenation;
    const ports = portsOf(element);
    if (ports !== undefined) parsed.ports = ports;
    if (iei === Iei.NationalLockingShift && length === 1)
      parsed.lockingShiftLanguage = octet(element.data, 0);
    if (iei === Iei.NationalSingleShift && length === 1) parsed.singleShiftLanguage = octet(element.data, 0);
  }
  return parsed;
}

/** UDHL followed by the elements; empty when there are none. */
export function encodeUserDataHeader(elements: readonly HeaderElement[]): Uint8Array {
  if (elements.length === 0) return new Uint8Array(0);
  const body = elements.flatMap((element) => [element.iei, element.data.length, ...element.data]);
  return Uint8Array.from([body.length, ...body]);
}

/** IEI 0x00, the 8-bit reference form every handset understands. */
export function concatenationElement(
  reference: number,
  partsCount: number,
  partNumber: number,
): HeaderElement {
  return { iei: Iei.Concatenation8, data: Uint8Array.from([reference, partsCount, partNumber]) };
}

/** IEI 0x05, 16-bit application ports (§9.2.3.24.4). */
export function portsElement(ports: Ports): HeaderElement {
  const { destination, source } = ports;
  return {
    iei: Iei.Ports16,
    data: Uint8Array.from([destination >> 8, destination & 0xff, source >> 8, source & 0xff]),
  };
}
