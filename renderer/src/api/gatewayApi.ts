import type { ApiClient, QueryValue } from './apiClient.js';
import type {
  AtLogLine,
  DailyStats,
  DeviceRecord,
  GatewayStatus,
  InboxRecord,
  LogRecord,
  MessageRecord,
  SendMessageRequest,
  SerialPortInfo,
  SettingsDocument,
  SmsServicePreference,
  TokenResponse,
  WebhookDeliveryRecord,
  WebhookRecord,
} from './types.js';

/** One typed function per route the UI calls; the screens never build paths themselves. */

export interface ListPage<Item> {
  items: Item[];
  total?: number;
}

function totalOf(headers: Headers): number | undefined {
  const raw = headers.get('X-Total-Count');
  if (raw === null) return undefined;
  const total = Number(raw);
  return Number.isFinite(total) ? total : undefined;
}

export interface MessageFilter {
  state?: string;
  deviceId?: string;
  from?: string;
  to?: string;
  search?: string;
}

export interface InboxFilter {
  type?: string;
  deviceId?: string;
  from?: string;
  to?: string;
  search?: string;
}

export function createGatewayApi(client: ApiClient) {
  async function listPage<Item>(path: string, query: Record<string, QueryValue>): Promise<ListPage<Item>> {
    const response = await client.request<Item[]>('GET', path, { query });
    return { items: response.data ?? [], total: totalOf(response.headers) };
  }
  const id = encodeURIComponent;

  return {
    baseUrl: client.baseUrl,
    status: () => client.get<GatewayStatus>('/gateway/v1/status'),
    dailyStats: (days = 14) => client.get<DailyStats[]>('/gateway/v1/stats/daily', { days }),
    setSendingPaused: (paused: boolean) => client.post<GatewayStatus>('/gateway/v1/sending', { paused }),
    changeLogin: async (username: string, password: string) => {
      await client.request('PUT', '/gateway/v1/credentials', { body: { username, password } });
    },
    /** A consistent copy of the message database, taken while the gateway runs. */
    backup: async () => (await client.request<Blob>('POST', '/gateway/v1/backup', { binary: true })).data,

    listMessages: (filter: MessageFilter, limit: number, offset: number) =>
      listPage<MessageRecord>('/messages', { ...filter, limit, offset, includeContent: true }),
    getMessage: (messageId: string) => client.get<MessageRecord>(`/messages/${id(messageId)}`),
    cancelMessage: (messageId: string) => client.delete<MessageRecord>(`/messages/${id(messageId)}`),
    sendMessage: (request: SendMessageRequest) => client.post<MessageRecord>('/messages', request),

    listInbox: (filter: InboxFilter, limit: number, offset: number) =>
      listPage<InboxRecord>('/inbox', { ...filter, limit, offset }),
    refreshInbox: (since: string, until: string) => client.post<void>('/inbox/refresh', { since, until }),

    devices: () => client.get<DeviceRecord[]>('/devices'),
    removeDevice: (deviceId: string) => client.delete<void>(`/devices/${id(deviceId)}`),
    serialPorts: () => client.get<SerialPortInfo[]>('/gateway/v1/serial-ports'),
    addModem: (path: string, baudRate?: number) =>
      client.post<DeviceRecord>('/gateway/v1/modems', baudRate ? { path, baudRate } : { path }),
    addHiLink: (url: string) => client.post<DeviceRecord>('/gateway/v1/hilink', { url }),
    enterPin: (deviceId: string, pin: string) =>
      client.post<void>(`/gateway/v1/devices/${id(deviceId)}/pin`, { pin }),
    setSmsService: (deviceId: string, service: SmsServicePreference) =>
      client.post<void>(`/gateway/v1/devices/${id(deviceId)}/sms-service`, { service }),
    renameDevice: (deviceId: string, name: string) =>
      client.patch<DeviceRecord>(`/gateway/v1/devices/${id(deviceId)}`, { name }),
    simulateIncoming: (deviceId: string, sender: string, text: string) =>
      client.post<void>(`/gateway/v1/devices/${id(deviceId)}/simulate-incoming`, { sender, text }),
    atLog: (deviceId: string, limit = 200) =>
      client.get<AtLogLine[]>(`/gateway/v1/devices/${id(deviceId)}/at-log`, { limit }),

    webhooks: () => client.get<WebhookRecord[]>('/webhooks'),
    saveWebhook: (webhook: { id?: string; url: string; event: string; deviceId?: string }) =>
      client.post<WebhookRecord>('/webhooks', webhook),
    removeWebhook: (webhookId: string) => client.delete<void>(`/webhooks/${id(webhookId)}`),
    webhookDeliveries: (webhookId: string, limit = 50) =>
      client.get<WebhookDeliveryRecord[]>('/gateway/v1/webhooks/deliveries', { webhookId, limit }),
    testWebhook: (webhookId: string) => client.post<void>(`/gateway/v1/webhooks/${id(webhookId)}/test`),

    logs: (from: string, to?: string) => client.get<LogRecord[]>('/logs', { from, to }),

    settings: () => client.get<SettingsDocument>('/settings'),
    patchSettings: (patch: SettingsDocument) => client.patch<SettingsDocument>('/settings', patch),

    createToken: (scopes: string[], ttl: number) =>
      client.post<TokenResponse>('/auth/token', { scopes, ttl }),
    revokeToken: (jti: string) => client.delete<void>(`/auth/token/${id(jti)}`),
  };
}

export type GatewayApi = ReturnType<typeof createGatewayApi>;
