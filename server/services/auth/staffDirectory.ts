import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock/clock.js';
import type { AccessRole, StaffRole } from '../../contract/domain/staffRoles.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Document } from '../../store/documentStore.js';
import { ownEntry } from '../../store/ownEntry.js';
import { type BasicCredentials, hashPassword, type PasswordCheck, type ScryptCost } from './credentials.js';
import type { HashingGate } from './hashingGate.js';
import { createLoginChecks } from './loginChecks.js';

/**
 * The people who sign in to the window (docs/accounts-plans-routing.md). The owner is the Basic
 * login the gateway always had (`credentials.ts`: given, stored or generated on the first run),
 * so an install from before staff users has exactly one person, its owner, with the same
 * credentials. Everyone else is added by an owner and kept in the `staff` document with a
 * salted scrypt hash whose parameters travel with it.
 */
export interface StaffIdentity {
  id: string;
  name: string;
  role: AccessRole;
}

export interface StaffMember extends StaffIdentity {
  role: StaffRole;
  /** ms since the epoch; absent for the owner login. */
  createdAt?: number;
  /** The name of whoever added them. */
  createdBy?: string;
}

interface StoredStaffMember extends Required<StaffMember> {
  /** `scrypt$<N>$<r>$<p>$<salt>$<key>`, as credentials.ts writes it. */
  passwordHash: string;
}

export interface StaffDocumentData {
  users?: Record<string, StoredStaffMember>;
}

/** The id of the Basic login's person, in tokens, the audit trail and the API. */
export const ownerId = 'owner';

export interface StaffLogin {
  identity: StaffIdentity;
  check: PasswordCheck;
}

export interface StaffChange {
  role?: StaffRole;
  password?: string;
}

export interface StaffDirectory {
  /** The login a Basic user name belongs to; undefined for a name nobody has. */
  login(name: string): StaffLogin | undefined;
  /** The person as they are now; undefined once removed. */
  identity(id: string): StaffIdentity | undefined;
  /** The owner login first, then by name. */
  list(): StaffMember[];
  /** 409 naming `name` when the name is taken. */
  add(member: { name: string; password: string; role: StaffRole }, by: StaffIdentity): Promise<StaffMember>;
  /** 404 for an unknown id; the owner login is changed through its own route. */
  update(id: string, change: StaffChange): Promise<StaffMember>;
  remove(id: string): Promise<void>;
  /** Called with the id of a person whose role or password changed, or who was removed. */
  onChange(listener: (id: string) => void): () => void;
}

export function openStaffDirectory(options: {
  document: Pick<Document<StaffDocumentData>, 'data' | 'update'>;
  owner: BasicCredentials;
  hashing: HashingGate;
  clock: Clock;
  scryptCost?: ScryptCost;
  /** Whether an app's login has the name already (auth/appDirectory.ts). */
  nameTaken?: (name: string) => boolean;
}): StaffDirectory {
  const { document, owner, hashing, clock } = options;
  const listeners = new Set<(id: string) => void>();
  const checks = createLoginChecks(hashing);
  const users = () => document.data.users ?? {};
  const ownerIdentity = (): StaffMember => ({ id: ownerId, name: owner.username, role: 'owner' });
  const changed = (id: string) => {
    checks.forget(id);
    for (const listener of listeners) listener(id);
  };
  owner.onChange(() => changed(ownerId));

  const publicView = ({ passwordHash: _hash, ...member }: StoredStaffMember): StaffMember => member;
  const stored = (id: string): StoredStaffMember => {
    const member = ownEntry(users(), id);
    if (!member) throw new GatewayError(ErrorCode.NotFound, `no person with id ${id}`, { field: 'id' });
    return member;
  };
  const checkOf = (member: StoredStaffMember): PasswordCheck => checks.of(member);
  const refuseOwnerChange = (id: string) => {
    if (id === ownerId) {
      throw new GatewayError(
        ErrorCode.InvalidState,
        'the owner login changes with PUT /gateway/v1/credentials, and cannot be removed',
        { field: 'id' },
      );
    }
  };

  return {
    login(name) {
      if (name === owner.username) return { identity: ownerIdentity(), check: owner };
      const member = Object.values(users()).find((candidate) => candidate.name === name);
      return (
        member && {
          identity: { id: member.id, name: member.name, role: member.role },
          check: checkOf(member),
        }
      );
    },
    identity(id) {
      if (id === ownerId) return ownerIdentity();
      const member = ownEntry(users(), id);
      return member && { id: member.id, name: member.name, role: member.role };
    },
    list() {
      const others = Object.values(users())
        .map(publicView)
        .sort((a, b) => a.name.localeCompare(b.name));
      return [ownerIdentity(), ...others];
    },
    async add(member, by) {
      const taken =
        member.name === owner.username || Object.values(users()).some((u) => u.name === member.name);
      if (taken) {
        throw new GatewayError(ErrorCode.Conflict, `name: "${member.name}" is taken`, { field: 'name' });
      }
      const record: StoredStaffMember = {
        id: randomBytes(9).toString('base64url'),
        name: member.name,
        role: member.role,
        createdAt: clock.now(),
        createdBy: by.name,
        passwordHash: await hashPassword(member.password, options.scryptCost),
      };
      await document.update((data) => {
        data.users = { ...data.users, [record.id]: record };
      });
      return publicView(record);
    },
    async update(id, change) {
      refuseOwnerChange(id);
      const current = stored(id);
      const next: StoredStaffMember = {
        ...current,
        ...(change.role === undefined ? {} : { role: change.role }),
        ...(change.password === undefined
          ? {}
          : { passwordHash: await hashPassword(change.password, options.scryptCost) }),
      };
      await document.update((data) => {
        data.users = { ...data.users, [id]: next };
      });
      changed(id);
      return publicView(next);
    },
    async remove(id) {
      refuseOwnerChange(id);
      stored(id);
      await document.update((data) => {
        const { [id]: _removed, ...rest } = data.users ?? {};
        data.users = rest;
      });
      changed(id);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
