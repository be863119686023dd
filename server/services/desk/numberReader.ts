import { normalisePhoneNumber } from '../../contract/domain/phoneNumbers.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

/**
 * Reads numbers as people typed them into E.164 with the `desk.default_country` setting in force
 * at the time of the call; a number that cannot be read is a 400 naming the field, with the
 * friendly sentence of `normalisePhoneNumber` instead of a pattern.
 */
export type NumberReader = (typed: string, field: string) => string;

export function numberReader(defaultCountry: () => string | null): NumberReader {
  return (typed, field) => {
    const result = normalisePhoneNumber(typed, defaultCountry() ?? undefined);
    if (result.ok) return result.e164;
    throw new GatewayError(ErrorCode.ValidationFailed, `${field}: ${result.message}`, { field });
  };
}
