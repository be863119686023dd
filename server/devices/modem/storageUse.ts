import type { StorageRole, StorageUse } from '../../contract/domain/device.js';
import { parseCpmsUsage } from '../at/parsers.js';

const roles: readonly StorageRole[] = ['read', 'write', 'receive'];

/** From this share of slots used on, a memory counts as nearly full. */
export const nearlyFullShare = 0.8;

/**
 * `+CPMS: "SM",3,30,"SM",3,30,"ME",0,100` (`parseCpmsUsage`) → one entry per memory, with the
 * roles it holds. A modem listing only <mem1> (or two) gives fewer. Undefined when there is no
 * +CPMS line or it names no memory.
 */
export function parseStorageUse(lines: readonly string[]): StorageUse[] | undefined {
  const byMemory = new Map<string, StorageUse>();
  (parseCpmsUsage(lines) ?? []).slice(0, roles.length).forEach(({ storage, used, total }, index) => {
    if (storage === undefined) return;
    const memory = storage.toUpperCase();
    const role = roles[index] ?? 'read';
    const known = byMemory.get(memory);
    if (known) known.roles.push(role);
    else byMemory.set(memory, { memory, used, total, roles: [role] });
  });
  return byMemory.size > 0 ? [...byMemory.values()] : undefined;
}

export function isNearlyFull(use: StorageUse): boolean {
  return use.total > 0 && use.used >= use.total * nearlyFullShare;
}

/** The memory new messages land in is nearly full: read (and so delete) what it holds now. */
export function storageNeedsEmptying(uses: readonly StorageUse[]): boolean {
  return uses.some((use) => use.roles.includes('receive') && isNearlyFull(use));
}

/**
 * The memory new messages and status reports land in (<mem3>) has no free slot: the modem
 * refuses what the network brings now. Its name, or undefined when there is room.
 */
export function fullReceivingMemory(uses: readonly StorageUse[]): string | undefined {
  return uses.find((use) => use.roles.includes('receive') && use.total > 0 && use.used >= use.total)?.memory;
}
