/**
 * The slices of the API the acceptance suites read (messages, inbox, devices), typed as the
 * spec's records, and the waits they share.
 */
import { vi } from 'vitest';
import type { GatewayApi } from '../../support/gatewayHarness.js';

export type ApiMessageState = 'Pending' | 'Processed' | 'Sent' | 'Delivered' | 'Failed' | 'Cancelled';

export interface ApiRecipient {
  phoneNumber: string;
  state: ApiMessageState;
  error?: string;
  failure?: { code: string; modemCode?: number };
}

export interface ApiMessage {
  id: string;
  deviceId?: string;
  state: ApiMessageState;
  recipients: ApiRecipient[];
  states: Partial<Record<ApiMessageState, string>>;
}

export interface ApiInboxEntry {
  id: string;
  type: string;
  sender: string;
  contentPreview: string;
  createdAt: string;
}

const finalStates: readonly ApiMessageState[] = ['Sent', 'Delivered', 'Failed', 'Cancelled'];

export function isFinal(state: ApiMessageState, awaitingReport: boolean): boolean {
  // A Sent message that asked for a delivery report still waits for it.
  if (state === 'Sent') return !awaitingReport;
  return finalStates.includes(state);
}

/** GET `path` (a Location header, or /messages/<id>) until the message is in `state`. */
export async function waitForState(
  api: GatewayApi,
  path: string,
  state: ApiMessageState,
  timeoutMs = 15_000,
): Promise<ApiMessage> {
  return vi.waitFor(
    async () => {
      const response = await api.get<ApiMessage>(path);
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
      if (response.body.state !== state) {
        throw new Error(`message is ${response.body.state}, waiting for ${state}`);
      }
      return response.body;
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

/** Every message in the store, read page by page (the API serves at most 500 per page). */
export async function listAllMessages(api: GatewayApi): Promise<ApiMessage[]> {
  const all: ApiMessage[] = [];
  for (;;) {
    const response = await api.get<ApiMessage[]>(`/messages?limit=500&offset=${all.length}`);
    if (response.status !== 200) throw new Error(`GET /messages answered ${response.status}`);
    all.push(...response.body);
    if (response.body.length < 500) return all;
  }
}

/** Every inbox entry, read page by page. */
export async function listAllInbox(api: GatewayApi): Promise<ApiInboxEntry[]> {
  const all: ApiInboxEntry[] = [];
  for (;;) {
    const response = await api.get<ApiInboxEntry[]>(`/inbox?limit=500&offset=${all.length}`);
    if (response.status !== 200) throw new Error(`GET /inbox answered ${response.status}`);
    all.push(...response.body);
    if (response.body.length < 500) return all;
  }
}

/** X-Total-Count of GET /messages. */
export async function messageTotal(api: GatewayApi): Promise<number> {
  const response = await api.get('/messages?limit=1');
  return Number(response.headers.get('x-total-count'));
}

/** Waits until GET /devices lists `count` modems with status `ready`. */
export async function waitForReadyModems(api: GatewayApi, count: number, timeoutMs = 15_000): Promise<void> {
  await vi.waitFor(
    async () => {
      const devices = await api.get<{ modem?: { status?: string } }[]>('/devices');
      const ready = devices.body.filter((device) => device.modem?.status === 'ready').length;
      if (ready !== count) throw new Error(`${ready} of ${count} modems ready`);
    },
    { timeout: timeoutMs, interval: 50 },
  );
}
