/**
 * The audit actions of the ways in beside HTTP (whose actions are `METHOD /route`), and how
 * "Sent by" names a message queued through each: the person or app, and the way they came.
 */
export const mailSubmission = 'SMTP DATA';
export const smppSubmission = 'SMPP submit_sm';
/** An AI agent's tool call (doors/mcp/): `MCP send_sms`, `MCP confirm_send`… */
export const mcpActionPrefix = 'MCP ';

const wayInWords: Readonly<Record<string, string>> = {
  [mailSubmission]: 'by e-mail',
  [smppSubmission]: 'over SMPP',
};

/** "olga", or "olga, by e-mail" for what came in by mail. */
export function actorWithWayIn(actorName: string, action: string): string {
  const way = action.startsWith(mcpActionPrefix) ? 'by an AI agent (MCP)' : wayInWords[action];
  return way === undefined ? actorName : `${actorName}, ${way}`;
}
