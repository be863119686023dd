import type { MessageWait } from '../../../server/contract/domain/holdReasons.js';
import { createDeskApi } from '../desk/deskApi.js';
import { basicAuthorization } from '../session/session.js';
import type { ApiClient, QueryValue } from './apiClient.js';
import type {
  AppView,
  AtLogLine,
  AuditEventView,
  BridgeName,
  BridgeStatus,
  BridgeTestResult,
  ConversationRecord,
  DailyStats,
  DatabaseSize,
  DeviceRecord,
  GatewayStatus,
  InboxRecord,
  IssuedSmppLogin,
  IssuedTokenView,
  LogRecord,
  MessageRecord,
  MeView,
  MissedCall,
  ModemFiguresRecord,
  ModemOperationsSettings,
  NewPhoneRequest,
  OptOutRecord,
  PhonePacing,
  PhoneRecord,
  RefusedPortInfo,
  RouteDecision,
  RoutingRuleInput,
  RoutingRuleView,
  RuleInput,
  RuleRecord,
  RuleVerdict,
  SendMessageRequest,
  SerialPortInfo,
  SettingsDocument,
  SimPlanTermsInput,
  SimPlanView,
  SmppLoginHolder,
  SmsServicePreference,
  StaffRole,
  StaffView,
  ThreadMessageRecord,
  TokenResponse,
  UsbPhoneListing,
  UssdExchange,
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
  /** Our extension: messages with a Failed recipient, also those that stay Sent. */
  anyRecipientFailed?: boolean;
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

function smppLoginPath(holder: SmppLoginHolder): string {
  switch (holder.kind) {
    case 'me':
      return '/gateway/v1/me/smpp-login';
    case 'person':
      return `/gateway/v1/users/${encodeURIComponent(holder.id)}/smpp-login`;
    case 'app':
      return `/gateway/v1/apps/${encodeURIComponent(holder.id)}/smpp-login`;
  }
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
    /** Once per created user: the gateway forgets it has the password after answering. */
    revealCreatedFleetUser: () =>
      client.post<{ login: string; password: string }>('/gateway/v1/fleet/created-user-password'),
    /** Needs the current password, and ends every token, this window's session included. */
    changeLogin: async (change: { currentPassword: string; username: string; password: string }) => {
      await client.request('PUT', '/gateway/v1/credentials', { body: change });
    },
    /** The database's size on disk and how many messages it holds. */
    database: () => client.get<DatabaseSize>('/gateway/v1/database'),
    /** A consistent copy of the message database, taken while the gateway runs. */
    backup: async () => (await client.request<Blob>('POST', '/gateway/v1/backup', { binary: true })).data,

    listMessages: (filter: MessageFilter, limit: number, offset: number) =>
      listPage<MessageRecord>('/messages', { ...filter, limit, offset, includeContent: true }),
    getMessage: (messageId: string) => client.get<MessageRecord>(`/messages/${id(messageId)}`),
    cancelMessage: (messageId: string) => client.delete<MessageRecord>(`/messages/${id(messageId)}`),
    /** Why each of these queued messages waits, by id (those no longer queued are left out). */
    messageWaits: (messageIds: string[]) =>
      client.get<Record<string, MessageWait>>('/gateway/v1/messages/waiting', { ids: messageIds.join(',') }),
    sendMessage: (request: SendMessageRequest) => client.post<MessageRecord>('/messages', request),

    /** Our extension: a new time and/or text while no modem has the message. */
    editScheduledMessage: (messageId: string, edit: { scheduleAt?: string; text?: string }) =>
      client.patch<MessageRecord>(`/gateway/v1/messages/${id(messageId)}`, edit),

    listConversations: (query: {
      archived: boolean;
      limit: number;
      offset: number;
      search?: string | undefined;
    }) => listPage<ConversationRecord>('/gateway/v1/conversations', query),
    thread: (number: string, limit: number, offset: number) =>
      listPage<ThreadMessageRecord>(`/gateway/v1/conversations/${id(number)}`, { limit, offset }),
    markConversation: (number: string, read: boolean) =>
      client.post<ConversationRecord>(`/gateway/v1/conversations/${id(number)}/${read ? 'read' : 'unread'}`),
    archiveConversation: (number: string, archived: boolean) =>
      client.post<ConversationRecord>(`/gateway/v1/conversations/${id(number)}/archive`, { archived }),
    replyInConversation: (number: string, text: string) =>
      client.post<MessageRecord>(`/gateway/v1/conversations/${id(number)}/reply`, { text }),

    listOptOuts: (limit: number, offset: number) =>
      listPage<OptOutRecord>('/gateway/v1/opt-outs', { limit, offset }),
    optedOut: (phoneNumbers: readonly string[]) =>
      client.post<string[]>('/gateway/v1/opt-outs/lookup', { phoneNumbers }),
    addOptOut: (phoneNumber: string) => client.post<OptOutRecord>('/gateway/v1/opt-outs', { phoneNumber }),
    removeOptOut: (phoneNumber: string) => client.delete<void>(`/gateway/v1/opt-outs/${id(phoneNumber)}`),

    me: () => client.get<MeView>('/gateway/v1/me'),
    /** Makes or resets an SMPP login (a new 8-character password, answered this once). */
    issueSmppLogin: (holder: SmppLoginHolder, systemId?: string) =>
      client
        .request<IssuedSmppLogin>('PUT', smppLoginPath(holder), {
          body: systemId === undefined ? {} : { systemId },
        })
        .then((response) => response.data),
    removeSmppLogin: (holder: SmppLoginHolder) => client.delete<void>(smppLoginPath(holder)),
    /** The signed-in person's own password; ends the tokens issued to them. */
    changeOwnPassword: async (change: { currentPassword: string; password: string }) => {
      await client.request('PUT', '/gateway/v1/me/password', { body: change });
    },
    apps: () => client.get<AppView[]>('/gateway/v1/apps'),
    addApp: (app: {
      name: string;
      password: string;
      quota?: { perDay?: number; perMonth?: number; resetAt: string; timeZone: string };
    }) => client.post<AppView>('/gateway/v1/apps', app),
    changeApp: (
      appId: string,
      change: {
        incoming?: AppView['incoming'];
        quota?: Omit<NonNullable<AppView['quota']>, 'usage'> | null;
        allowedDeviceIds?: AppView['allowedDeviceIds'] | null;
      },
    ) => client.patch<AppView>(`/gateway/v1/apps/${id(appId)}`, change),
    removeApp: (appId: string) => client.delete<void>(`/gateway/v1/apps/${id(appId)}`),
    plans: () => client.get<{ plans: SimPlanView[] }>('/gateway/v1/plans').then((answer) => answer.plans),
    setPlan: (deviceId: string, sim: number, terms: SimPlanTermsInput) =>
      client
        .request<SimPlanView>('PUT', `/gateway/v1/plans/${id(deviceId)}/${sim}`, { body: terms })
        .then((response) => response.data),
    removePlan: (deviceId: string, sim: number) =>
      client.delete<void>(`/gateway/v1/plans/${id(deviceId)}/${sim}`),
    routingRules: () =>
      client.get<{ rules: RoutingRuleView[] }>('/gateway/v1/routing').then((answer) => answer.rules),
    /** Replaces every rule, in the order given; the API names a refused rule's field as `rules[i].…`. */
    setRoutingRules: (rules: readonly RoutingRuleInput[]) =>
      client
        .request<{ rules: RoutingRuleView[] }>('PUT', '/gateway/v1/routing', { body: { rules } })
        .then((response) => response.data.rules),
    tryRoute: (phoneNumber: string) => client.get<RouteDecision>('/gateway/v1/routing/try', { phoneNumber }),
    /** The operator names the data has for a country, as an operator rule names them. */
    routingOperators: (country: string) =>
      client
        .get<{ operators: string[] }>('/gateway/v1/routing/operators', { country })
        .then((answer) => answer.operators),
    /** Messages, parts and failures per day and sender, as CSV text. */
    usageCsv: () => client.get<string>('/gateway/v1/usage', { format: 'csv' }),
    people: () => client.get<StaffView[]>('/gateway/v1/users'),
    addPerson: (person: { name: string; password: string; role: StaffRole }) =>
      client.post<StaffView>('/gateway/v1/users', person),
    changePerson: (personId: string, change: { role?: StaffRole; password?: string }) =>
      client
        .request<StaffView>('PATCH', `/gateway/v1/users/${id(personId)}`, { body: change })
        .then((response) => response.data),
    removePerson: (personId: string) => client.delete<void>(`/gateway/v1/users/${id(personId)}`),
    listAudit: (filter: { subject?: string; actorId?: string }, limit: number, offset: number) =>
      listPage<AuditEventView>('/gateway/v1/audit', { ...filter, limit, offset }),
    /** Who first acted on each id (sent the message…), for exports. */
    firstActors: (subjects: string[]) =>
      client.post<Record<string, string>>('/gateway/v1/audit/actors', { subjects }),

    rules: () => client.get<RuleRecord[]>('/gateway/v1/rules'),
    createRule: (rule: RuleInput) => client.post<RuleRecord>('/gateway/v1/rules', rule),
    replaceRule: (ruleId: string, rule: RuleInput) =>
      client
        .request<RuleRecord>('PUT', `/gateway/v1/rules/${id(ruleId)}`, { body: rule })
        .then((response) => response.data),
    removeRule: (ruleId: string) => client.delete<void>(`/gateway/v1/rules/${id(ruleId)}`),
    reorderRules: (ids: string[]) =>
      client
        .request<RuleRecord[]>('PUT', '/gateway/v1/rules/order', { body: { ids } })
        .then((response) => response.data),
    testRules: (sample: { text: string; sender?: string; deviceId?: string }) =>
      client.post<RuleVerdict[]>('/gateway/v1/rules/test', sample),

    listInbox: (filter: InboxFilter, limit: number, offset: number) =>
      listPage<InboxRecord>('/inbox', { ...filter, limit, offset }),
    refreshInbox: (since: string, until: string) => client.post<void>('/inbox/refresh', { since, until }),

    devices: () => client.get<DeviceRecord[]>('/devices'),
    removeDevice: (deviceId: string) => client.delete<void>(`/devices/${id(deviceId)}`),
    serialPorts: () => client.get<SerialPortInfo[]>('/gateway/v1/serial-ports'),
    refusedPorts: () => client.get<RefusedPortInfo[]>('/gateway/v1/serial-ports/refused'),
    addModem: (path: string, baudRate?: number) =>
      client.post<DeviceRecord>('/gateway/v1/modems', baudRate ? { path, baudRate } : { path }),
    addHiLink: (url: string) => client.post<DeviceRecord>('/gateway/v1/hilink', { url }),
    addPhone: (request: NewPhoneRequest) => client.post<DeviceRecord>('/gateway/v1/phones', request),
    usbPhones: () => client.get<UsbPhoneListing>('/gateway/v1/usb-phones'),
    phone: (deviceId: string) => client.get<PhoneRecord>(`/gateway/v1/phones/${id(deviceId)}`),
    setPhonePacing: (deviceId: string, pacing: Partial<PhonePacing>) =>
      client.patch<PhoneRecord>(`/gateway/v1/phones/${id(deviceId)}`, { pacing }),
    enterPin: (deviceId: string, pin: string) =>
      client.post<void>(`/gateway/v1/devices/${id(deviceId)}/pin`, { pin }),
    setSmsService: (deviceId: string, service: SmsServicePreference) =>
      client.post<void>(`/gateway/v1/devices/${id(deviceId)}/sms-service`, { service }),
    renameDevice: (deviceId: string, name: string) =>
      client.patch<DeviceRecord>(`/gateway/v1/devices/${id(deviceId)}`, { name }),
    simulateIncoming: (deviceId: string, sender: string, text: string) =>
      client.post<void>(`/gateway/v1/devices/${id(deviceId)}/simulate-incoming`, { sender, text }),
    simulateSendFailure: (
      deviceId: string,
      failure: { cmsCode: number; count: number; phoneNumber?: string },
    ) => client.post<void>(`/gateway/v1/devices/${id(deviceId)}/simulate-failure`, failure),
    atLog: (deviceId: string, limit = 200) =>
      client.get<AtLogLine[]>(`/gateway/v1/devices/${id(deviceId)}/at-log`, { limit }),

    ussd: (deviceId: string, code: string, sessionId?: string) =>
      client.post<UssdExchange>(
        `/gateway/v1/devices/${id(deviceId)}/ussd`,
        sessionId ? { code, sessionId } : { code },
      ),
    cancelUssd: (deviceId: string, sessionId: string) =>
      client.delete<void>(`/gateway/v1/devices/${id(deviceId)}/ussd/${id(sessionId)}`),
    recentUssd: (deviceId: string) => client.get<UssdExchange[]>(`/gateway/v1/devices/${id(deviceId)}/ussd`),
    modemOperations: (deviceId: string) =>
      client.get<ModemOperationsSettings>(`/gateway/v1/devices/${id(deviceId)}/operations`),
    saveModemOperations: async (deviceId: string, settings: Omit<ModemOperationsSettings, 'lastBalance'>) =>
      (
        await client.request<ModemOperationsSettings>(
          'PUT',
          `/gateway/v1/devices/${id(deviceId)}/operations`,
          {
            body: settings,
          },
        )
      ).data,
    checkBalance: (deviceId: string) => client.post<void>(`/gateway/v1/devices/${id(deviceId)}/balance`),
    missedCalls: (deviceId: string, limit = 10) =>
      listPage<MissedCall>('/gateway/v1/calls', { deviceId, limit }),
    modemFigures: (deviceId: string, days = 7) =>
      client.get<ModemFiguresRecord[]>('/gateway/v1/stats', { deviceId, days }),

    webhooks: () => client.get<WebhookRecord[]>('/webhooks'),
    saveWebhook: (webhook: { id?: string; url: string; event: string; deviceId?: string }) =>
      client.post<WebhookRecord>('/webhooks', webhook),
    removeWebhook: (webhookId: string) => client.delete<void>(`/webhooks/${id(webhookId)}`),
    webhookDeliveries: (webhookId: string, limit = 50) =>
      client.get<WebhookDeliveryRecord[]>('/gateway/v1/webhooks/deliveries', { webhookId, limit }),
    resendDeliveries: (filter: { ids?: string[]; webhookId?: string }) =>
      client.post<WebhookDeliveryRecord[]>('/gateway/v1/webhooks/deliveries/resend', filter),
    testWebhook: (webhookId: string) => client.post<void>(`/gateway/v1/webhooks/${id(webhookId)}/test`),
    bridges: () => client.get<BridgeStatus>('/gateway/v1/bridges'),
    testBridge: (name: BridgeName) => client.post<BridgeTestResult>(`/gateway/v1/bridges/${id(name)}/test`),

    logs: (from: string, to?: string) => client.get<LogRecord[]>('/logs', { from, to }),

    settings: () => client.get<SettingsDocument>('/settings'),
    patchSettings: (patch: SettingsDocument) => client.patch<SettingsDocument>('/settings', patch),

    /**
     * With the password, not the session: the gateway lets a token mint only tokens that end
     * before it does, and a session is shorter than the tokens people create for their apps.
     */
    createToken: async (scopes: string[], ttl: number, login: { username: string; password: string }) =>
      (
        await client.request<TokenResponse>('POST', '/auth/token', {
          body: { scopes, ttl },
          headers: { Authorization: basicAuthorization(login.username, login.password) },
        })
      ).data,
    /** Ends the token's pair and every pair refreshed from it. */
    revokeToken: (jti: string) => client.delete<void>(`/auth/token/${id(jti)}`),
    issuedTokens: () => client.get<IssuedTokenView[]>('/gateway/v1/tokens'),
    revokeAllTokens: () => client.delete<void>('/gateway/v1/tokens'),
    ...createDeskApi(client),
  };
}

export type GatewayApi = ReturnType<typeof createGatewayApi>;
