import { randomBytes } from 'node:crypto';
import { appOfCaller, type Caller } from '../../contract/domain/caller.js';
import { type WebhookEventName, WebhookEventNames } from '../../contract/domain/webhookEvents.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { Document } from '../../store/documentStore.js';
import { checkWebhookUrl, type WebhookUrlPolicy } from './webhookUrl.js';

/**
 * Registered webhooks (spec: Events, registration rules; docs/decisions.md#webhooks): kept in a
 * small persisted document, upserted by id. Listeners (the dispatcher) hear every change.
 */
export interface WebhookRecord {
  id: string;
  url: string;
  event: WebhookEventName;
  /** Only events from this device; absent: every device. */
  deviceId?: string;
  /** Set by the private server in fleet mode: it alone changes or removes the webhook. */
  source?: 'server';
  /** The app that registered it (auth/appDirectory.ts); absent: the default app. */
  appId?: string;
}

export interface WebhookInput {
  /** Absent: a new id is generated. Present: replaces the webhook with that id. */
  id?: string;
  url: string;
  event: string;
  deviceId?: string;
  appId?: string;
}

export interface WebhookDocumentData {
  webhooks: WebhookRecord[];
}

export interface WebhookRegistry {
  /** Every webhook, whoever registered it (the dispatcher, fleet mode). */
  list(): WebhookRecord[];
  /** The webhooks a caller manages: an app its own; people and the gateway every one. */
  listFor(caller: Caller): WebhookRecord[];
  /**
   * `upsert` as the caller: an app's webhook is its own, and another app's id is a 409 naming
   * `id`; a replaced webhook stays with the app that registered it.
   */
  register(input: Omit<WebhookInput, 'appId'>, caller: Caller): Promise<WebhookRecord>;
  /** `remove` of a webhook the caller manages; another app's is left as if it were not there. */
  removeFor(id: string, caller: Caller): Promise<boolean>;
  /** Removes every webhook the app registered (the app is being removed). */
  removeApp(appId: string): Promise<void>;
  get(id: string): WebhookRecord | undefined;
  /** Validates (400 naming `url`, `event`, `id` or `deviceId`), stores, returns the record. */
  upsert(input: WebhookInput): Promise<WebhookRecord>;
  /** Returns false when no webhook had that id. */
  remove(id: string): Promise<boolean>;
  /**
   * Fleet mode: the private server's webhooks replace the ones it set before; invalid ones are
   * skipped with a warning (the server allows events we do not raise).
   */
  replaceFromServer(inputs: readonly WebhookInput[]): Promise<void>;
  /** Calls `listener` after every stored change; returns the unsubscribe function. */
  onChange(listener: (webhooks: readonly WebhookRecord[]) => void): () => void;
}

export interface WebhookRegistryOptions {
  document: Pick<Document<WebhookDocumentData>, 'data' | 'update'>;
  logger: Logger;
  /** Read at each registration (`webhooks.allow_lan_http`); absent: never. */
  allowLanHttp?: () => boolean;
}

/** Room for any client scheme (a UUID is 36); bounded so records and log lines stay small. */
export const maxWebhookIdLength = 64;
const maxDeviceIdLength = 64;

export function createWebhookRegistry(options: WebhookRegistryOptions): WebhookRegistry {
  const { document } = options;
  const logger = options.logger.child('webhooks');
  const listeners = new Set<(webhooks: readonly WebhookRecord[]) => void>();

  const records = (): WebhookRecord[] => document.data.webhooks ?? [];
  const notify = () => {
    const snapshot = records().map((record) => ({ ...record }));
    for (const listener of listeners) listener(snapshot);
  };

  const listFor = (caller: Caller): WebhookRecord[] => {
    const appId = appOfCaller(caller);
    return records()
      .filter((record) => appId === undefined || record.appId === appId)
      .map((record) => ({ ...record }));
  };

  const registry: WebhookRegistry = {
    list: () => records().map((record) => ({ ...record })),
    listFor,

    async register(input, caller) {
      const appId = appOfCaller(caller);
      const existing = input.id === undefined ? undefined : registry.get(input.id.trim());
      if (existing && appId !== undefined && existing.appId !== appId) {
        throw new GatewayError(ErrorCode.Conflict, `id: webhook ${input.id} belongs to another app`, {
          field: 'id',
        });
      }
      const owner = existing ? existing.appId : appId;
      return registry.upsert({ ...input, ...(owner === undefined ? {} : { appId: owner }) });
    },

    async removeFor(id, caller) {
      if (!listFor(caller).some((record) => record.id === id)) return false;
      return registry.remove(id);
    },

    async removeApp(appId) {
      for (const record of records()) if (record.appId === appId) await registry.remove(record.id);
    },

    get(id) {
      const found = records().find((record) => record.id === id);
      return found ? { ...found } : undefined;
    },

    async upsert(input) {
      refuseServerManaged(input.id === undefined ? undefined : records().find((r) => r.id === input.id));
      const record = checkInput(input, { allowLanHttp: options.allowLanHttp?.() ?? false });
      await document.update((data) => {
        const others = (data.webhooks ?? []).filter((existing) => existing.id !== record.id);
        data.webhooks = [...others, record];
      });
      logger.info('registered a webhook', { id: record.id, event: record.event });
      notify();
      return { ...record };
    },

    async remove(id) {
      const existing = records().find((record) => record.id === id);
      if (!existing) return false;
      refuseServerManaged(existing);
      await document.update((data) => {
        data.webhooks = (data.webhooks ?? []).filter((record) => record.id !== id);
      });
      logger.info('removed a webhook', { id });
      notify();
      return true;
    },

    async replaceFromServer(inputs) {
      const fromServer: WebhookRecord[] = [];
      for (const input of inputs) {
        try {
          fromServer.push({
            ...checkInput(input, { allowLanHttp: options.allowLanHttp?.() ?? false }),
            source: 'server',
          });
        } catch (error) {
          logger.warn('a webhook of the private server is not supported here; skipped', {
            id: input.id,
            event: input.event,
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
      const ids = new Set(fromServer.map((record) => record.id));
      await document.update((data) => {
        const local = (data.webhooks ?? []).filter(
          (record) => record.source !== 'server' && !ids.has(record.id),
        );
        data.webhooks = [...local, ...fromServer];
      });
      logger.info('webhooks of the private server applied', { count: fromServer.length });
      notify();
    },

    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return registry;
}

/** While the private server manages a webhook, the local API may not change it. */
function refuseServerManaged(existing: WebhookRecord | undefined): void {
  if (existing?.source !== 'server') return;
  throw new GatewayError(
    ErrorCode.Forbidden,
    `id: webhook ${existing.id} is managed by the private server (fleet mode); change it there`,
    { field: 'id' },
  );
}

function checkInput(input: WebhookInput, urlPolicy: WebhookUrlPolicy): WebhookRecord {
  const fail = (field: string, why: string): never => {
    throw new GatewayError(ErrorCode.ValidationFailed, `${field}: ${why}`, { field });
  };
  const id = input.id === undefined ? newWebhookId() : input.id.trim();
  if (id === '' || id.length > maxWebhookIdLength)
    fail('id', `must be 1 to ${maxWebhookIdLength} characters`);
  if (!(WebhookEventNames as readonly string[]).includes(input.event)) {
    fail('event', `must be one of ${WebhookEventNames.join(', ')}`);
  }
  const record: WebhookRecord = {
    id,
    url: checkWebhookUrl(input.url, urlPolicy),
    event: input.event as WebhookEventName,
  };
  if (input.deviceId !== undefined) {
    const deviceId = input.deviceId.trim();
    if (deviceId === '' || deviceId.length > maxDeviceIdLength) {
      fail('deviceId', `must be 1 to ${maxDeviceIdLength} characters`);
    }
    record.deviceId = deviceId;
  }
  if (input.appId !== undefined) record.appId = input.appId;
  return record;
}

const idAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/** 21 characters from a 64-letter alphabet (126 bits), the shape of upstream's generated ids. */
function newWebhookId(): string {
  // 256 is a multiple of 64, so masking each byte keeps the letters uniform.
  return [...randomBytes(21)].map((byte) => idAlphabet[byte & 63]).join('');
}
