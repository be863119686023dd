/** UCS-2 as sent in SMS: UTF-16BE code units (TS 23.038 §6.2.3; surrogate pairs pass through as two units). */

export function encodeUcs2(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    bytes[index * 2] = unit >> 8;
    bytes[index * 2 + 1] = unit & 0xff;
  }
  return bytes;
}

/** A trailing odd octet (truncated user data) is dropped rather than guessed at. */
export function decodeUcs2(bytes: Uint8Array): string {
  const units: number[] = [];
  for (let index = 0; index + 1 < bytes.length; index += 2) {
    units.push(((bytes[index] ?? 0) << 8) | (bytes[index + 1] ?? 0));
  }
  let text = '';
  // Chunked so a long message never exceeds the engine's argument limit.
  for (let start = 0; start < units.length; start += 4096) {
    text += String.fromCharCode(...units.slice(start, start + 4096));
  }
  return text;
}
