/**
 * Parses what a host types after "AT" into single commands, the way a V.250 modem does.
 *
 * - V.250 §5.2.1: a command line is "AT" followed by commands; basic commands (`E0`, `Z`, `&F`,
 *   `I`) follow each other directly, extended commands (`+CMGS=23`, `^ICCID?`) are separated
 *   by `;`.
 * - V.250 §5.3: an extended command has four forms: action (`+CGMI`), read (`+CMGF?`), test
 *   (`+CMGF=?`) and set (`+CMGF=0`).
 * - Command names are case-insensitive; arguments keep their case (a PIN or number may not
 *   care, but a quoted operator name does).
 *
 * Pure: no I/O.
 */
export type CommandForm = 'action' | 'read' | 'test' | 'set';

export interface AtCommand {
  /** Upper-case name without "AT": `E`, `&F`, `+CMGS`, `^ICCID`. */
  name: string;
  form: CommandForm;
  /** Raw argument text: the digits of a basic command, or what follows `=` in a set command. */
  args: string;
}

/** Returns the commands of one line, `[]` for a bare "AT", or undefined when it is not valid AT syntax. */
export function parseCommandLine(line: string): AtCommand[] | undefined {
  const trimmed = line.trim();
  if (!/^at/i.test(trimmed)) return undefined;
  const body = trimmed.slice(2);
  const commands: AtCommand[] = [];
  let position = 0;
  while (position < body.length) {
    const char = body.charAt(position);
    if (char === ';' || char === ' ') {
      position++;
      continue;
    }
    const parsed = char === '+' || char === '^' ? readExtended(body, position) : readBasic(body, position);
    if (!parsed) return undefined;
    commands.push(parsed.command);
    position = parsed.next;
  }
  return commands;
}

interface Parsed {
  command: AtCommand;
  next: number;
}

function readExtended(body: string, start: number): Parsed | undefined {
  const match = /^[+^][A-Za-z0-9]+/.exec(body.slice(start));
  if (!match) return undefined;
  const name = match[0].toUpperCase();
  let position = start + match[0].length;
  const rest = body.slice(position);
  if (rest.startsWith('=?')) return { command: { name, form: 'test', args: '' }, next: position + 2 };
  if (rest.startsWith('?')) return { command: { name, form: 'read', args: '' }, next: position + 1 };
  if (!rest.startsWith('=')) return { command: { name, form: 'action', args: '' }, next: position };
  position++;
  const argsStart = position;
  let quoted = false;
  while (position < body.length) {
    const char = body.charAt(position);
    if (char === '"') quoted = !quoted;
    else if (char === ';' && !quoted) break;
    position++;
  }
  return { command: { name, form: 'set', args: body.slice(argsStart, position).trim() }, next: position };
}

function readBasic(body: string, start: number): Parsed | undefined {
  // V.250 §5.2.1: a basic command is one letter, or "&" and one letter, and an optional number.
  const match = /^(&?[A-Za-z])(\d*)/.exec(body.slice(start));
  if (!match) return undefined;
  const name = (match[1] ?? '').toUpperCase();
  return { command: { name, form: 'action', args: match[2] ?? '' }, next: start + match[0].length };
}

/**
 * Splits set-command arguments at commas outside quotes and removes the quotes:
 * `"SM","SM",1` → `['SM', 'SM', '1']`. An empty argument stays an empty string (`,,5`).
 */
export function splitArguments(args: string): string[] {
  if (args.trim() === '') return [];
  const values: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of args) {
    if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      values.push(current.trim());
      current = '';
    } else current += char;
  }
  values.push(current.trim());
  return values;
}

/** An argument as a whole number in [min, max], or undefined when it is absent or out of range. */
export function integerArgument(value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  const number = Number(value);
  return number >= min && number <= max ? number : undefined;
}
