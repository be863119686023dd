import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock/clock.js';
import type { ResetRule } from '../../clock/resetPeriods.js';
import type { Caller } from '../../contract/domain/caller.js';
import { audienceHears, type IncomingAudience } from '../../contract/domain/incoming.js';
import { type SimTargetForm, toSimTarget } from '../../contract/domain/simTarget.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Document } from '../../store/documentStore.js';
import { ownEntry } from '../../store/ownEntry.js';
import { hashPassword, type ScryptCost } from './credentials.js';
import type { HashingGate } from './hashingGate.js';
import { createLoginChecks } from './loginChecks.js';
import type { StaffIdentity, StaffLogin } from './staffDirectory.js';

/**
 * Apps as tenants (docs/accounts-plans-routing.md): each app has its own Basic login (its name
 * and password) and the tokens it asks for with it, sees only the messages it queued, and may
 * have a quota. The default app is the owner's Basic login, as it always was: its clients see
 * everything, as before apps existed.
 */
export interface AppQuota extends ResetRule {
  /** Most messages per day (from `resetAt` to `resetAt`); absent: no daily limit. */
  perDay?: number;
  /** Most messages per month (from the 1st at `resetAt`); absent: no monthly limit. */
  perMonth?: number;
}

/**
 * Which incoming messages an app's webhooks hear: all, none, those that arrive on the listed
 * modems, or replies: those from a number whose last message from the gateway was the app's.
 */
export type IncomingChoice =
  | { mode: 'all' }
  | { mode: 'none' }
  | { mode: 'devices'; deviceIds: SimTargetForm[] }
  | { mode: 'replies' };

export interface AppRecord {
  id: string;
  name: string;
  createdAt: number;
  createdBy: string;
  quota?: AppQuota;
  /** Absent: all. */
  incoming?: IncomingChoice;
  /** The modems and SIM slots its messages may go through; absent: any (server/services/routing/routeGuard.ts). */
  allowedDeviceIds?: SimTargetForm[];
}

interface StoredApp extends AppRecord {
  passwordHash: string;
}

export interface AppDocumentData {
  apps?: Record<string, StoredApp>;
}

/** The owner login's app: the one every message without an app belongs to. */
export const defaultAppId = 'default';

/** An app's credentials act as this identity: its id in tokens and the audit trail is `app:<id>`. */
export const appPrincipalPrefix = 'app:';

export function appIdOf(identity: Pick<StaffIdentity, 'id'>): string | undefined {
  return identity.id.startsWith(appPrincipalPrefix)
    ? identity.id.slice(appPrincipalPrefix.length)
    : undefined;
}

/** The caller a login acts as, for the services (domain/caller.ts): an app, or a person. */
export function callerOf(identity: Pick<StaffIdentity, 'id'>): Caller {
  const appId = appIdOf(identity);
  return appId === undefined ? { kind: 'person', id: identity.id } : { kind: 'app', appId };
}

export interface AppChange {
  password?: string;
  /** null: no quota. */
  quota?: AppQuota | null;
  incoming?: IncomingChoice;
  /** null: any modem. */
  allowedDeviceIds?: SimTargetForm[] | null;
}

export interface AppDirectory {
  login(name: string): StaffLogin | undefined;
  /** By the identity id (`app:<id>`); undefined once removed. */
  identity(principalId: string): StaffIdentity | undefined;
  get(id: string): AppRecord | undefined;
  list(): AppRecord[];
  add(
    app: {
      name: string;
      password: string;
      quota?: AppQuota;
      incoming?: IncomingChoice;
      allowedDeviceIds?: SimTargetForm[];
    },
    by: StaffIdentity,
  ): Promise<AppRecord>;
  /** Whether the app's webhooks hear this incoming message. */
  hearsIncoming(
    appId: string,
    origin: { deviceId: string; simNumber?: number | undefined; repliesTo?: string | undefined },
  ): boolean;
  /** The received messages the app's incoming rule gives it: its inbox and its events. */
  incomingAudience(appId: string): IncomingAudience;
  update(id: string, change: AppChange): Promise<AppRecord>;
  remove(id: string): Promise<void>;
  /** Called with the identity id of an app whose password changed or that was removed. */
  onChange(listener: (principalId: string) => void): () => void;
}

export function openAppDirectory(options: {
  document: Pick<Document<AppDocumentData>, 'data' | 'update'>;
  hashing: HashingGate;
  clock: Clock;
  scryptCost?: ScryptCost;
  /** Whether a person's login has the name already. */
  nameTaken: (name: string) => boolean;
}): AppDirectory {
  const { document, clock } = options;
  const checks = createLoginChecks(options.hashing);
  const listeners = new Set<(principalId: string) => void>();
  const apps = () => document.data.apps ?? {};
  const audienceOf = (appId: string): IncomingAudience => {
    const incoming = ownEntry(apps(), appId)?.incoming ?? { mode: 'all' };
    switch (incoming.mode) {
      case 'all':
        return { kind: 'everything' };
      case 'none':
        return { kind: 'nothing' };
      case 'devices':
        return { kind: 'devices', targets: incoming.deviceIds.map(toSimTarget) };
      case 'replies':
        return { kind: 'replies', appId };
    }
  };
  const identityOf = (app: AppRecord): StaffIdentity => ({
    id: `${appPrincipalPrefix}${app.id}`,
    name: app.name,
    role: 'app',
  });
  const publicView = ({ passwordHash: _hash, ...app }: StoredApp): AppRecord => app;
  const stored = (id: string): StoredApp => {
    const app = ownEntry(apps(), id);
    if (!app) throw new GatewayError(ErrorCode.NotFound, `no app with id ${id}`, { field: 'id' });
    return app;
  };
  const changed = (id: string) => {
    checks.forget(id);
    for (const listener of listeners) listener(`${appPrincipalPrefix}${id}`);
  };
  const save = (app: StoredApp) =>
    document.update((data) => {
      data.apps = { ...data.apps, [app.id]: app };
    });

  return {
    login(name) {
      const app = Object.values(apps()).find((candidate) => candidate.name === name);
      return app && { identity: identityOf(app), check: checks.of(app) };
    },
    identity(principalId) {
      if (!principalId.startsWith(appPrincipalPrefix)) return undefined;
      const app = ownEntry(apps(), principalId.slice(appPrincipalPrefix.length));
      return app && identityOf(app);
    },
    get: (id) => {
      const app = ownEntry(apps(), id);
      return app && publicView(app);
    },
    list: () =>
      Object.values(apps())
        .map(publicView)
        .sort((a, b) => a.name.localeCompare(b.name)),
    async add(app, by) {
      if (options.nameTaken(app.name) || Object.values(apps()).some((known) => known.name === app.name)) {
        throw new GatewayError(ErrorCode.Conflict, `name: "${app.name}" is taken`, { field: 'name' });
      }
      const record: StoredApp = {
        id: randomBytes(9).toString('base64url'),
        name: app.name,
        createdAt: clock.now(),
        createdBy: by.name,
        ...(app.quota ? { quota: app.quota } : {}),
        ...(app.incoming ? { incoming: app.incoming } : {}),
        ...(app.allowedDeviceIds ? { allowedDeviceIds: app.allowedDeviceIds } : {}),
        passwordHash: await hashPassword(app.password, options.scryptCost),
      };
      await save(record);
      return publicView(record);
    },
    async update(id, change) {
      const { quota: _quota, allowedDeviceIds: _allowed, ...current } = stored(id);
      const quota = change.quota === undefined ? stored(id).quota : (change.quota ?? undefined);
      const allowedDeviceIds =
        change.allowedDeviceIds === undefined
          ? stored(id).allowedDeviceIds
          : (change.allowedDeviceIds ?? undefined);
      const next: StoredApp = {
        ...current,
        ...(quota ? { quota } : {}),
        ...(allowedDeviceIds ? { allowedDeviceIds } : {}),
        ...(change.incoming === undefined ? {} : { incoming: change.incoming }),
        ...(change.password === undefined
          ? {}
          : { passwordHash: await hashPassword(change.password, options.scryptCost) }),
      };
      await save(next);
      if (change.password !== undefined) changed(id);
      return publicView(next);
    },
    async remove(id) {
      stored(id);
      await document.update((data) => {
        const { [id]: _removed, ...rest } = data.apps ?? {};
        data.apps = rest;
      });
      changed(id);
    },
    hearsIncoming: (appId, origin) => audienceHears(audienceOf(appId), origin),
    incomingAudience: audienceOf,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
