/**
 * How AT command text becomes a string anyone may see (errors, status, logs). Pure.
 */

/**
 * A SIM PIN or PUK must never reach a message, a status or a log: AT+CPIN="1234",
 * AT+CPIN="PUK","PIN" (TS 27.007 §8.3), AT+CPWD="SC","old","new" (§7.5) and AT+CLCK="SC",1,"PIN"
 * (§7.4) lose everything after the "=". Applied to what is sent and to what a modem echoes.
 */
export function redactSecrets(data: string): string {
  return data.replace(/(AT\+(?:CPIN|CPWD|CLCK)=)[^\r\n]*/gi, '$1"****"');
}

/** "AT\r" → "AT\\r": raw traffic stays one readable log line. */
export function escapeControls(data: string): string {
  let text = '';
  for (const char of data) {
    const code = char.charCodeAt(0);
    if (char === '\r') text += '\\r';
    else if (char === '\n') text += '\\n';
    else if (code < 0x20) text += `\\x${code.toString(16).padStart(2, '0')}`;
    else text += char;
  }
  return text;
}
