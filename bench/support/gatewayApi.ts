import { basicAuthorization } from './gatewayProcess.js';

/** The few API calls benchmarks and fault tests make, over real HTTP. */

export const benchRecipient = '+447700900123';

/** 160 GSM 7-bit characters fit one part; 400 need three (153 per part with the UDH, TS 23.040 §9.2.3.24.1). */
export function textOfParts(parts: 1 | 3): string {
  return parts === 1 ? 'Benchmark message: one part.' : 'x'.repeat(400);
}

/**
 * A POST /messages body. Throughput workloads ask for no delivery report: a report is a second,
 * inbound flow (+CDSI, AT+CMGR, AT+CMGD) that a real network returns seconds later, not part of
 * how fast the gateway hands messages to the modem.
 */
export function messageBody(text: string, options: { withDeliveryReport?: boolean } = {}): string {
  return JSON.stringify({
    textMessage: { text },
    phoneNumbers: [benchRecipient],
    withDeliveryReport: options.withDeliveryReport ?? true,
  });
}

export const jsonHeaders = { authorization: basicAuthorization, 'content-type': 'application/json' };

export interface Posted {
  status: number;
  id?: string;
}

export async function postMessage(
  url: string,
  text: string,
  options: { withDeliveryReport?: boolean } = {},
): Promise<Posted> {
  const response = await fetch(`${url}/messages`, {
    method: 'POST',
    headers: jsonHeaders,
    body: messageBody(text, options),
  });
  const body = (await response.json()) as { id?: string };
  return { status: response.status, ...(body.id === undefined ? {} : { id: body.id }) };
}

export interface MessageStateView {
  id: string;
  state: string;
  recipients: { phoneNumber: string; state: string; error?: string | null }[];
}

export async function getMessage(url: string, id: string): Promise<MessageStateView | undefined> {
  const response = await fetch(`${url}/messages/${encodeURIComponent(id)}`, {
    headers: { authorization: basicAuthorization },
  });
  if (response.status === 404) {
    await response.arrayBuffer();
    return undefined;
  }
  if (response.status !== 200) throw new Error(`GET /messages/${id} answered ${response.status}`);
  return (await response.json()) as MessageStateView;
}

/** Counts of messages per state, read through GET /messages pages. */
export async function countByState(url: string, state: string): Promise<number> {
  const response = await fetch(`${url}/messages?state=${state}&limit=1`, {
    headers: { authorization: basicAuthorization },
  });
  await response.arrayBuffer();
  return Number(response.headers.get('x-total-count'));
}
