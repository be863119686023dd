/**
 * Field-level helpers shared by the reply parsers: prefix removal, comma splitting with and
 * without quote awareness, and parenthesised list syntax ("(1-3,5),("SM","ME")"). Pure.
 */

/** "+CSQ: 20,99" with "+CSQ" → "20,99"; undefined when the line has another prefix. */
export function afterPrefix(line: string, prefix: string): string | undefined {
  const text = line.trim();
  if (text.length < prefix.length || text.slice(0, prefix.length).toUpperCase() !== prefix.toUpperCase()) {
    return undefined;
  }
  const rest = text.slice(prefix.length);
  if (rest.length === 0) return '';
  if (rest[0] !== ':') return undefined;
  return rest.slice(1).trim();
}

/** The first line of `lines` that carries `prefix`, without it. */
export function findPrefixed(lines: readonly string[], prefix: string): string | undefined {
  for (const line of lines) {
    const rest = afterPrefix(line, prefix);
    if (rest !== undefined) return rest;
  }
  return undefined;
}

/** Splits on commas outside double quotes and unquotes each field ("a,b",,x → [a,b] [] [x]). */
export function splitQuoted(text: string): string[] {
  const fields: string[] = [];
  let current = '';
  let quoted = false;
  let wasQuoted = false;
  for (const char of text) {
    if (char === '"') {
      quoted = !quoted;
      wasQuoted = true;
    } else if (char === ',' && !quoted) {
      fields.push(wasQuoted ? current : current.trim());
      current = '';
      wasQuoted = false;
    } else if (quoted || char !== ' ' || current.length > 0) {
      current += char;
    }
  }
  fields.push(wasQuoted ? current : current.trim());
  return fields;
}

/**
 * Splits on every comma and strips quotes from each field: for numeric/hex replies where a
 * modem may mismatch its quotes (gammu tests/at-creg-corner: `+CREG: 2,1,"0B,"0100701",7`).
 */
export function splitLoose(text: string): string[] {
  return text.split(',').map((field) => field.replaceAll('"', '').trim());
}

/** A parenthesised list item: a bare token or a nested list. */
export type ListItem = string | ListItem[];

/**
 * Parses TS 27.007 §4.1 test-command syntax into a tree: `(2),(0-1,3)` → [['2'], ['0-1', '3']],
 * `(("SM","BM"),("SM"))` → [[['SM','BM'], ['SM']]]. Quotes are removed, blank items dropped
 * (older Telit: "(1,2,3,)").
 */
export function parseLists(text: string): ListItem[] {
  const root: ListItem[] = [];
  const stack: ListItem[][] = [root];
  let token = '';
  let quoted = false;
  const flush = () => {
    const value = token.trim();
    const top = stack[stack.length - 1];
    if (value.length > 0 && top) top.push(value);
    token = '';
  };
  for (const char of text) {
    if (char === '"') {
      quoted = !quoted;
      continue;
    }
    if (quoted) {
      token += char;
      continue;
    }
    if (char === '(') {
      flush();
      const list: ListItem[] = [];
      stack[stack.length - 1]?.push(list);
      stack.push(list);
    } else if (char === ')') {
      flush();
      if (stack.length > 1) stack.pop();
    } else if (char === ',') {
      flush();
    } else {
      token += char;
    }
  }
  flush();
  return root;
}

/** The bare tokens of one list level (nested lists are skipped). */
export function tokensOf(item: ListItem | undefined): string[] {
  if (item === undefined) return [];
  if (typeof item === 'string') return [item];
  return item.filter((entry): entry is string => typeof entry === 'string');
}

/** Expands "0-1", "3" tokens into numbers ([0, 1, 3]); non-numeric tokens are ignored. */
export function expandRanges(tokens: readonly string[]): number[] {
  const values: number[] = [];
  for (const token of tokens) {
    const range = /^(\d+)\s*-\s*(\d+)$/.exec(token);
    if (range) {
      const from = Number(range[1]);
      const to = Number(range[2]);
      for (let value = from; value <= to; value++) values.push(value);
    } else if (/^\d+$/.test(token)) {
      values.push(Number(token));
    }
  }
  return values;
}

/** A decimal integer field, or undefined when empty or not a number. */
export function toInt(field: string | undefined): number | undefined {
  if (field === undefined) return undefined;
  const text = field.trim();
  return /^-?\d+$/.test(text) ? Number(text) : undefined;
}
