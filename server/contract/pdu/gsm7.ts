/**
 * The GSM 7-bit default alphabet and its extension table (TS 23.038 §6.2.1 and §6.2.1.1),
 * plus the decoder that honours national language shift tables.
 */

export const ESCAPE = 0x1b;

/** TS 23.038 §6.2.1, indexed by septet value; 0x1B is the escape to the extension table. */
export const DEFAULT_ALPHABET =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

/** TS 23.038 §6.2.1.1: characters reached by ESC + septet. */
export const DEFAULT_EXTENSION: ReadonlyMap<number, string> = new Map([
  [0x0a, '\f'],
  [0x14, '^'],
  [0x28, '{'],
  [0x29, '}'],
  [0x2f, '\\'],
  [0x3c, '['],
  [0x3d, '~'],
  [0x3e, ']'],
  [0x40, '|'],
  [0x65, '€'],
]);

/** The pair of tables a GSM 7-bit text is decoded with (default, or national per the UDH). */
export interface Gsm7Tables {
  /** 128 characters indexed by septet (locking shift table). */
  locking: string;
  /** Characters reached by ESC + septet (single shift table). */
  singleShift: ReadonlyMap<number, string>;
}

export const DEFAULT_TABLES: Gsm7Tables = { locking: DEFAULT_ALPHABET, singleShift: DEFAULT_EXTENSION };

const DEFAULT_SEPTET_OF: ReadonlyMap<string, number> = new Map(
  [...DEFAULT_ALPHABET]
    .map((char, septet) => [char, septet] as const)
    .filter(([, septet]) => septet !== ESCAPE),
);
const EXTENSION_SEPTET_OF: ReadonlyMap<string, number> = new Map(
  [...DEFAULT_EXTENSION].map(([septet, char]) => [char, septet] as const),
);

/**
 * The septets of one character in the default alphabet: one septet, or ESC + septet for the
 * extension table; undefined when the character needs UCS-2.
 */
export function septetsOfCharacter(char: string): number[] | undefined {
  const septet = DEFAULT_SEPTET_OF.get(char);
  if (septet !== undefined) return [septet];
  const extended = EXTENSION_SEPTET_OF.get(char);
  if (extended !== undefined) return [ESCAPE, extended];
  return undefined;
}

/**
 * Each UTF-16 unit of `text` as its septets, or undefined when any character is outside the
 * default and extension tables (then the text goes out as UCS-2).
 */
export function toGsm7Characters(text: string): number[][] | undefined {
  const characters: number[][] = [];
  for (let index = 0; index < text.length; index++) {
    const septets = septetsOfCharacter(text.charAt(index));
    if (septets === undefined) return undefined;
    characters.push(septets);
  }
  return characters;
}

/** Septets to text. An escape before a septet the single shift table lacks shows the locking table's character (TS 23.038 §6.2.1.1 note). */
export function decodeGsm7(septets: ArrayLike<number>, tables: Gsm7Tables = DEFAULT_TABLES): string {
  let text = '';
  for (let index = 0; index < septets.length; index++) {
    const septet = (septets[index] ?? 0) & 0x7f;
    if (septet !== ESCAPE) {
      text += tables.locking.charAt(septet);
      continue;
    }
    index++;
    if (index >= septets.length) break; // a dangling escape carries no character
    const shifted = (septets[index] ?? 0) & 0x7f;
    if (shifted === ESCAPE) {
      // TS 23.038 §6.2.1.1: ESC ESC is reserved for a further extension table; show a space.
      text += ' ';
      continue;
    }
    text += tables.singleShift.get(shifted) ?? tables.locking.charAt(shifted);
  }
  return text;
}
