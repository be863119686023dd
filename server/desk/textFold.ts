/**
 * Text as search compares it: lowercased, accents and other combining marks removed, so
 * "Muller" finds "Müller" and "jose" finds "José". Pure: the contact search folds the needle
 * with it and the stored text with the same function registered in SQL (`foldTextSql`).
 */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The SQL name `foldText` is registered under on the connection of the contact search. */
export const foldTextSql = 'desk_fold';
