import type { Random } from './seededRandom.js';

/**
 * Lines a broken, noisy or hostile modem might send unasked: unsolicited result codes with bad
 * fields, PDUs that are not hex or lie about their length (TS 27.005 §3.4.1 +CMT/+CDS carry
 * `<length>` then the PDU on the next line), stray prompts and results, binary noise.
 */
function hex(random: Random, octets: number): string {
  let text = '';
  for (let index = 0; index < octets; index++) text += random.int(0, 255).toString(16).padStart(2, '0');
  return text.toUpperCase();
}

function noise(random: Random, length: number): string {
  let text = '';
  // No CR or LF: the line framing is the modem's, the content is the noise.
  for (let index = 0; index < length; index++) {
    const code = random.int(0, 255);
    text += code === 0x0d || code === 0x0a ? ' ' : String.fromCharCode(code);
  }
  return text;
}

export function malformedModemLines(random: Random): string[] {
  switch (random.int(0, 13)) {
    case 0:
      return [`+CMT: ,${random.int(0, 300)}`, hex(random, random.int(0, 180))];
    case 1:
      return [`+CMT: "",${random.pick(['', '-1', 'x', '99999'])}`, noise(random, random.int(0, 80))];
    case 2:
      // A DELIVER whose first octets are plausible and the rest random.
      return [
        `+CMT: ,${random.int(10, 40)}`,
        `00${random.pick(['04', '44', '24'])}0B91${hex(random, random.int(0, 60))}`,
      ];
    case 3:
      return [`+CDS: ${random.int(0, 50)}`, hex(random, random.int(0, 40))];
    case 4:
      return [`+CDS: ${random.int(0, 50)}`, 'ZZ'.repeat(random.int(1, 30))];
    case 5:
      // Rare: each one makes the gateway read (and fail to find) a stored message.
      return random.next() < 0.2
        ? [`+CMTI: "${random.pick(['SM', 'ME', 'XX', ''])}",${random.pick(['999', '-1', 'a', ''])}`]
        : ['RING'];
    case 6:
      return random.next() < 0.2 ? [`+CDSI: "SR",${random.pick(['500', 'x', ''])}`] : ['NO CARRIER'];
    case 7:
      return [`+CREG: ${random.pick(['9', 'x', '1,FFFF,FFFFFFFF', ''])}`];
    case 8:
      return [`+CSQ: ${random.pick(['99,99', '-5,3', 'abc', ''])}`, `^RSSI: ${random.pick(['x', '99', ''])}`];
    case 9:
      return [noise(random, random.int(1, 200))];
    case 10:
      return ['x'.repeat(random.int(200, 4_000))];
    case 11:
      return [`+CMGS: ${random.pick(['12', 'x', ''])}`];
    case 12:
      return [`+CUSD: ${random.int(0, 9)},"${noise(random, 30).replace(/"/g, '')}",${random.int(0, 300)}`];
    default:
      return [
        `${random.pick(['+', '^', '*', '#'])}${noise(random, random.int(0, 20))}: ${noise(random, random.int(0, 40))}`,
      ];
  }
}
