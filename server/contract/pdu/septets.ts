/**
 * Septet packing (TS 23.038 §6.1.2.1.1): septets are laid LSB-first across octets. After a
 * user data header the text starts on the next septet boundary, so a header of n octets
 * occupies ceil(8n / 7) septets and leaves 0..6 fill bits (TS 23.040 §9.2.3.24).
 */

export function headerSeptetCount(headerOctets: number): number {
  return Math.ceil((headerOctets * 8) / 7);
}

/** The octets of `header` (already complete, UDHL included) followed by `septets` on the next septet boundary. */
export function packSeptets(septets: ArrayLike<number>, header: Uint8Array = new Uint8Array(0)): Uint8Array {
  const leadingSeptets = headerSeptetCount(header.length);
  const totalSeptets = leadingSeptets + septets.length;
  const packed = new Uint8Array(Math.ceil((totalSeptets * 7) / 8));
  packed.set(header);
  for (let index = 0; index < septets.length; index++) {
    const septet = (septets[index] ?? 0) & 0x7f;
    const bit = (leadingSeptets + index) * 7;
    const octet = bit >> 3;
    const shift = bit & 7;
    packed[octet] = (packed[octet] ?? 0) | ((septet << shift) & 0xff);
    if (shift > 1) {
      packed[octet + 1] = (packed[octet + 1] ?? 0) | (septet >> (8 - shift));
    }
  }
  return packed;
}

/** `count` septets starting at septet index `firstSeptet`; bits beyond the end read as zero. */
export function unpackSeptets(packed: Uint8Array, firstSeptet: number, count: number): number[] {
  const septets: number[] = [];
  for (let index = 0; index < count; index++) {
    const bit = (firstSeptet + index) * 7;
    const octet = bit >> 3;
    const pair = (packed[octet] ?? 0) | ((packed[octet + 1] ?? 0) << 8);
    septets.push((pair >> (bit & 7)) & 0x7f);
  }
  return septets;
}

/** How many whole septets `octets` octets hold. */
export function septetCapacity(octets: number): number {
  return Math.floor((octets * 8) / 7);
}
