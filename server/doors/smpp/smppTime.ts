/**
 * SMPP 3.4 §7.1.1 times: "YYMMDDhhmmsstnnp". Absolute (§7.1.1.1): the local time of the first
 * 13 characters, `nn` quarter hours ahead of (`+`) or behind (`-`) UTC. Relative (§7.1.1.2, `p`
 * = `R`): years, months, days, hours, minutes and seconds from now; `t` and `nn` are ignored.
 * An empty field (a lone NUL on the wire) means "not given".
 */
export type SmppTime = { ok: true; at: number | undefined } | { ok: false; reason: string };

const pattern = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d)(\d{2})([+\-R])$/;

export function parseSmppTime(value: string, now: number): SmppTime {
  if (value === '') return { ok: true, at: undefined };
  const match = pattern.exec(value);
  if (!match) return { ok: false, reason: `"${value}" is not an SMPP time (YYMMDDhhmmsstnnp)` };
  const [yy, mo, dd, hh, mi, ss, tenths, nn] = match.slice(1, 9).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const sign = match[9];
  if (sign === 'R') {
    const at = new Date(now);
    at.setUTCFullYear(at.getUTCFullYear() + yy, at.getUTCMonth() + mo, at.getUTCDate() + dd);
    at.setUTCHours(at.getUTCHours() + hh, at.getUTCMinutes() + mi, at.getUTCSeconds() + ss);
    return { ok: true, at: at.getTime() };
  }
  if (mo < 1 || mo > 12 || dd < 1 || dd > 31 || hh > 23 || mi > 59 || ss > 59 || nn > 48) {
    return { ok: false, reason: `"${value}" has a field out of range` };
  }
  // Two-digit years: 2000–2099, the only century an SMSC still running can mean.
  const local = Date.UTC(2000 + yy, mo - 1, dd, hh, mi, ss, tenths * 100);
  const offsetMs = nn * 15 * 60_000;
  return { ok: true, at: sign === '+' ? local - offsetMs : local + offsetMs };
}

/** "YYMMDDhhmm" in UTC, the form of a delivery receipt's dates (SMPP 3.4 Appendix B). */
export function receiptDate(at: number): string {
  const date = new Date(at);
  const two = (value: number) => String(value).padStart(2, '0');
  return (
    two(date.getUTCFullYear() % 100) +
    two(date.getUTCMonth() + 1) +
    two(date.getUTCDate()) +
    two(date.getUTCHours()) +
    two(date.getUTCMinutes())
  );
}

/** An absolute §7.1.1.1 time in UTC ("…000+"), as query_sm_resp's final_date. */
export function absoluteSmppTime(at: number): string {
  const date = new Date(at);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${receiptDate(at)}${two(date.getUTCSeconds())}${Math.floor(date.getUTCMilliseconds() / 100)}00+`;
}
