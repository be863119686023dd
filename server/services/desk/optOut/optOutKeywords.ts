/** "STOP, stopall ,QUIT" → the words, uppercased; empty entries dropped. */
export function keywordList(setting: string | null): string[] {
  return (setting ?? '')
    .split(',')
    .map((word) => word.trim().toUpperCase())
    .filter((word) => word !== '');
}

/** The whole text is one of the words, in any case, with surrounding spaces or a full stop ignored. */
export function isKeyword(text: string, words: readonly string[]): boolean {
  const said = text
    .trim()
    .replace(/[.!]+$/, '')
    .toUpperCase();
  return words.includes(said);
}
