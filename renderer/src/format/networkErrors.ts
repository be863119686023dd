/**
 * Plain words for the system's network error codes that reach the window in error texts
 * (webhook deliveries, the status banner): the words first, the code and detail after them for
 * whoever looks it up. A text with no known code is returned as it is.
 */
const plainWords: Record<string, string> = {
  ECONNREFUSED: 'nothing accepted the connection at that address (is the receiver running?)',
  ENOTFOUND: 'that host name could not be found',
  ETIMEDOUT: 'no answer in time',
  ECONNRESET: 'the connection was cut off',
  EHOSTUNREACH: 'that host cannot be reached from this computer',
  ENETUNREACH: 'this computer has no route to that network',
  EAI_AGAIN: 'the host name could not be looked up just now',
  CERT_HAS_EXPIRED: 'the receiver’s certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the receiver’s certificate is self-signed',
};

const codePattern = new RegExp(`\\b(${Object.keys(plainWords).join('|')})\\b`);

export function plainNetworkError(text: string): string {
  const code = codePattern.exec(text)?.[1];
  const words = code && plainWords[code];
  return words ? `${words} (${text})` : text;
}
