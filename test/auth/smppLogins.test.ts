import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { ErrorCode, GatewayError } from '../../server/errors/gatewayError.js';
import { createHashingGate } from '../../server/services/auth/hashingGate.js';
import { openSmppLogins, type SmppLoginDocumentData } from '../../server/services/auth/smppLogins.js';
import type { StaffIdentity } from '../../server/services/auth/staffDirectory.js';
import { JsonDisk } from './support/jsonDocument.js';

/** SMPP logins that fit a bind: 15 characters of system_id, 8 of password (SMPP 3.4 §4.1.1). */
const anna: StaffIdentity = { id: 'person-anna', name: 'Anna Lindström', role: 'operator' };
const shop: StaffIdentity = { id: 'app:shop', name: 'Web shop orders, Café Zoë', role: 'app' };
const bob: StaffIdentity = { id: 'person-bob', name: 'bob', role: 'operator' };
const everyone = [anna, shop, bob];

function open(disk = new JsonDisk<SmppLoginDocumentData>({})) {
  return openSmppLogins({
    document: disk.open(),
    hashing: createHashingGate(),
    clock: new ManualClock(),
    scryptCost: { N: 1_024, r: 8, p: 1 },
    identity: (holder) => everyone.find((person) => person.id === holder),
    nameTaken: (name) => everyone.find((person) => person.name === name),
  });
}

async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (rejected: unknown) => rejected,
  );
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

describe('SMPP logins', () => {
  it('makes a system_id from the name that fits, and an 8-character password that binds as its holder', async () => {
    const logins = open();
    const issued = await logins.issue(shop);
    expect(issued.systemId).toBe('WebshopordersCa');
    expect(issued.systemId.length).toBeLessThanOrEqual(15);
    expect(issued.password).toMatch(/^[A-HJ-NP-Za-km-z2-9]{8}$/);
    const login = logins.login(issued.systemId);
    expect(login?.identity).toEqual(shop);
    expect(await login?.check.verify(issued.systemId, issued.password)).toBe(true);
    expect(await login?.check.verify(issued.systemId, 'wrong123')).toBe(false);
    expect(logins.systemIdOf(shop.id)).toBe(issued.systemId);
  });

  it('drops accents and numbers a name already taken by someone else', async () => {
    const logins = open();
    expect((await logins.issue(anna)).systemId).toBe('AnnaLindstrom');
    const namesake: StaffIdentity = { id: 'person-anna-2', name: 'Anna Lindström', role: 'viewer' };
    everyone.push(namesake);
    try {
      expect((await logins.issue(namesake)).systemId).toBe('AnnaLindstrom-2');
    } finally {
      everyone.pop();
    }
  });

  it("may be its holder's own name, never another's", async () => {
    const logins = open();
    expect((await logins.issue(bob)).systemId).toBe('bob');
    const taken = await refusal(logins.issue(anna, 'bob'));
    expect(taken.code).toBe(ErrorCode.Conflict);
    expect(taken.field).toBe('systemId');
  });

  it('refuses a system_id that does not fit a bind, naming the field', async () => {
    const logins = open();
    for (const systemId of ['sixteen-chars-xx', '', 'with space', 'tab\there', 'zoë']) {
      const refused = await refusal(logins.issue(anna, systemId));
      expect(refused.code, systemId).toBe(ErrorCode.ValidationFailed);
      expect(refused.field).toBe('systemId');
    }
    expect(logins.systemIdOf(anna.id)).toBeUndefined();
  });

  it('resets to a new password under the same system_id; the old password stops working', async () => {
    const disk = new JsonDisk<SmppLoginDocumentData>({});
    const logins = open(disk);
    const first = await logins.issue(anna, 'anna');
    const second = await logins.issue(anna);
    expect(second.systemId).toBe('anna');
    expect(second.password).not.toBe(first.password);
    const reopened = open(disk);
    const login = reopened.login('anna');
    expect(await login?.check.verify('anna', first.password)).toBe(false);
    expect(await login?.check.verify('anna', second.password)).toBe(true);
  });

  it('moves to a new system_id, freeing the old one', async () => {
    const logins = open();
    await logins.issue(anna, 'anna');
    await logins.issue(anna, 'anna-desk');
    expect(logins.login('anna')).toBeUndefined();
    expect(logins.has('anna')).toBe(false);
    expect(logins.systemIdOf(anna.id)).toBe('anna-desk');
  });

  it('ends with its removal, or when its holder is gone', async () => {
    const logins = open();
    await logins.issue(anna, 'anna');
    await logins.issue(bob, 'bobby');
    expect(await logins.remove(anna.id)).toBe(true);
    expect(await logins.remove(anna.id)).toBe(false);
    expect(logins.login('anna')).toBeUndefined();
    const bobIndex = everyone.indexOf(bob);
    everyone.splice(bobIndex, 1);
    try {
      expect(logins.login('bobby')).toBeUndefined();
    } finally {
      everyone.splice(bobIndex, 0, bob);
    }
  });
});
