/**
 * Text as every search compares it (messages, inbox, contacts, and the window's live lists):
 * lowercased, accents and other combining marks removed, and the few Latin letters that carry
 * their mark inside them written as people type them without it, so "Muller" and "MULLER" find
 * "Müller", "jose" finds "José" and "soren" finds "Søren". The store keeps each row's searched
 * text folded (its `search` column) and folds the needle the same way, so a search compares
 * plain text and the indexes hold folded trigrams.
 */
export function foldText(text: string): string {
  return (
    text
      // Lowercase first: "İ" lowercases to "i" and a combining dot, which the next step drops.
      .toLowerCase()
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .replace(/[ßøłđæœı]/g, (letter) => letterWithoutMark[letter] ?? letter)
      // Back to composed form: Hangul syllables, which NFD takes apart, stay one character.
      .normalize('NFC')
  );
}

/** Lowercase letters whose mark is part of the letter (NFD leaves them whole). */
const letterWithoutMark: Readonly<Record<string, string>> = {
  ß: 'ss',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  æ: 'ae',
  œ: 'oe',
  ı: 'i',
};
