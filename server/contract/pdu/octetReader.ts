import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

/**
 * A cursor over PDU octets. Every read checks the bounds and throws PduMalformed naming the
 * field it wanted, so a truncated PDU can never surface as a RangeError or an undefined.
 */
export class OctetReader {
  private position = 0;

  constructor(private readonly bytes: Uint8Array) {}

  get remaining(): number {
    return this.bytes.length - this.position;
  }

  readOctet(field: string): number {
    const value = this.bytes[this.position];
    if (value === undefined) {
      throw new GatewayError(ErrorCode.PduMalformed, `PDU ends before ${field}`, { field });
    }
    this.position++;
    return value;
  }

  readOctets(count: number, field: string): Uint8Array {
    if (count > this.remaining) {
      throw new GatewayError(ErrorCode.PduMalformed, `PDU ends inside ${field}`, { field });
    }
    const slice = this.bytes.subarray(this.position, this.position + count);
    this.position += count;
    return slice;
  }

  /** Up to `count` octets: real modems truncate user data (gammu at-sms tests), decoders read what is there. */
  readAtMost(count: number): Uint8Array {
    return this.readOctets(Math.min(count, this.remaining), 'user data');
  }
}
