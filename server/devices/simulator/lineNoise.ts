/**
 * Junk a confused modem sends: what a host sees from a port at the wrong baud rate or a
 * firmware printing debug output. Bytes with the high bit set, so a line can never read as a
 * result code ("OK", "ERROR") or an unsolicited one. Deterministic per seed, so tests repeat.
 */
export function junkLines(seed: number): string[] {
  const lines: string[] = [];
  const count = 1 + (seed % 3);
  for (let line = 0; line < count; line++) {
    let text = '';
    const length = 8 + ((seed + line) % 9);
    for (let position = 0; position < length; position++) {
      text += String.fromCharCode(0x80 + ((seed * 31 + line * 17 + position * 7) % 0x7f));
    }
    lines.push(text);
  }
  return lines;
}
