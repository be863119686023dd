import { randomBytes } from 'node:crypto';
import { decodeJwt, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import { tokenDocumentMigrations } from '../../server/services/auth/tokenDocument.js';
import {
  openTokenService,
  type TokenDocumentData,
  type TokenRejection,
  type TokenServiceOptions,
} from '../../server/services/auth/tokenService.js';
import { JsonDisk } from './support/jsonDocument.js';

const hour = 3_600_000;

function setup(overrides: Partial<TokenServiceOptions> = {}) {
  const clock = new ManualClock();
  const disk = new JsonDisk<TokenDocumentData>({});
  const open = (options: Partial<TokenServiceOptions> = {}) =>
    openTokenService({ document: disk.open(), clock, logger: silentLogger, ...overrides, ...options });
  return { clock, disk, open };
}

const rejectedAs = (reason: TokenRejection) => ({ code: ErrorCode.Unauthorized, reason });

describe('TokenService.issue', () => {
  it('signs an HS256 access token carrying jti, iss, iat, exp, scopes and token_use', async () => {
    const { clock, open } = setup();
    const tokens = await open();
    const pair = await tokens.issue(['messages:send', 'messages:read']);

    const claims = decodeJwt(pair.accessToken);
    expect(claims).toMatchObject({
      jti: pair.id,
      iss: 'desktop-sms-gateway',
      iat: clock.now() / 1000,
      exp: clock.now() / 1000 + 3_600,
      scopes: ['messages:send', 'messages:read'],
      token_use: 'access',
    });
    expect(
      JSON.parse(Buffer.from(pair.accessToken.split('.')[0] ?? '', 'base64url').toString()),
    ).toMatchObject({
      alg: 'HS256',
    });
    expect(pair.expiresAt).toBe(clock.now() + hour);
  });

  it('gives the refresh token only tokens:refresh, a 720 h lifetime and the family of its access token', async () => {
    const { clock, open } = setup();
    const pair = await (await open()).issue(['messages:send']);

    const claims = decodeJwt(pair.refreshToken);
    const access = decodeJwt(pair.accessToken);
    expect(claims.scopes).toEqual(['tokens:refresh']);
    expect(claims.token_use).toBe('refresh');
    expect([claims.fam, claims.gen]).toEqual([access.fam, access.gen]);
    expect(claims.jti).not.toBe(pair.id);
    expect(claims.exp).toBe(clock.now() / 1000 + 720 * 3_600);
  });

  it('uses the requested ttl, and the default when the request sends 0', async () => {
    const { clock, open } = setup();
    const tokens = await open();

    expect((await tokens.issue(['logs:read'], 120)).expiresAt).toBe(clock.now() + 120_000);
    expect((await tokens.issue(['logs:read'], 0)).expiresAt).toBe(clock.now() + hour);
  });

  it.each([
    ['no scopes', [], undefined, 'scopes'],
    ['an unknown scope', ['messages:send', 'messages:fly'], undefined, 'scopes'],
    ['the system scope tokens:refresh', ['tokens:refresh'], undefined, 'scopes'],
    ['a negative ttl', ['logs:read'], -1, 'ttl'],
    ['a fractional ttl', ['logs:read'], 1.5, 'ttl'],
    ['a ttl beyond 720 h', ['logs:read'], 720 * 3_600 + 1, 'ttl'],
  ])('refuses %s with 400 naming the field', async (_name, scopes, ttl, field) => {
    const tokens = await setup().open();
    await expect(tokens.issue(scopes, ttl)).rejects.toMatchObject({
      code: ErrorCode.ValidationFailed,
      field,
    });
  });

  it('grants each requested scope once', async () => {
    const tokens = await setup().open();
    const pair = await tokens.issue(['logs:read', 'logs:read']);
    expect(decodeJwt(pair.accessToken).scopes).toEqual(['logs:read']);
  });
});

describe('TokenService.verify', () => {
  it('accepts its own access token with the granted scopes until it expires', async () => {
    const { clock, open } = setup();
    const tokens = await open();
    const pair = await tokens.issue(['devices:list'], 60);

    await clock.advance(59_000);
    const verified = await tokens.verify(pair.accessToken, 'access');
    expect([...verified.scopes]).toEqual(['devices:list']);
    expect(verified.jti).toBe(pair.id);

    await clock.advance(1_000);
    await expect(tokens.verify(pair.accessToken, 'access')).rejects.toMatchObject(rejectedAs('expired'));
  });

  it('refuses an access token where a refresh token is expected, and the reverse', async () => {
    const tokens = await setup().open();
    const pair = await tokens.issue(['devices:list']);

    await expect(tokens.verify(pair.accessToken, 'refresh')).rejects.toMatchObject(rejectedAs('wrong-use'));
    await expect(tokens.verify(pair.refreshToken, 'access')).rejects.toMatchObject(rejectedAs('wrong-use'));
  });

  it('refuses a token signed with another secret', async () => {
    const tokens = await setup().open();
    const stranger = await setup().open();
    const foreign = await stranger.issue(['all:any']);

    await expect(tokens.verify(foreign.accessToken, 'access')).rejects.toMatchObject(
      rejectedAs('bad-signature'),
    );
  });

  it('refuses an unsigned token and text that is no JWT', async () => {
    const { clock, open } = setup();
    const tokens = await open();
    const unsigned = new UnsecuredJWT({ scopes: ['all:any'], token_use: 'access' })
      .setJti('AAAAAAAAAAAAAAAAAAAAAA')
      .setIssuer('desktop-sms-gateway')
      .setIssuedAt(clock.now() / 1000)
      .setExpirationTime(clock.now() / 1000 + 60)
      .encode();

    await expect(tokens.verify(unsigned, 'access')).rejects.toMatchObject(rejectedAs('malformed'));
    await expect(tokens.verify('not-a-jwt', 'access')).rejects.toMatchObject(rejectedAs('malformed'));
  });

  it('refuses a correctly signed token that names a scope it does not know', async () => {
    const { clock, disk, open } = setup();
    const tokens = await open();
    const key = new Uint8Array(Buffer.from(disk.read().secret ?? '', 'base64url'));
    const forged = await new SignJWT({ scopes: ['root:everything'], token_use: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti(randomBytes(16).toString('base64url'))
      .setIssuer('desktop-sms-gateway')
      .setIssuedAt(clock.now() / 1000)
      .setExpirationTime(clock.now() / 1000 + 60)
      .sign(key);

    await expect(tokens.verify(forged, 'access')).rejects.toMatchObject(rejectedAs('malformed'));
  });
});

describe('TokenService.refresh', () => {
  it('rotates the pair: the new pair works, the old access token and refresh token do not', async () => {
    const { clock, open } = setup();
    const tokens = await open();
    const first = await tokens.issue(['messages:send'], 600);

    await clock.advance(60_000);
    const second = await tokens.refresh(first.refreshToken);

    expect(second.id).not.toBe(first.id);
    expect(second.expiresAt).toBe(clock.now() + 600_000);
    expect([...(await tokens.verify(second.accessToken, 'access')).scopes]).toEqual(['messages:send']);
    await expect(tokens.verify(first.accessToken, 'access')).rejects.toMatchObject(rejectedAs('revoked'));
    await expect(tokens.refresh(second.refreshToken)).resolves.toMatchObject({
      expiresAt: expect.any(Number),
    });
  });

  it('refuses a replayed refresh token and revokes every pair rotated from it (RFC 9700 §4.14.2)', async () => {
    const tokens = await setup().open();
    const first = await tokens.issue(['messages:send']);
    const second = await tokens.refresh(first.refreshToken);
    const third = await tokens.refresh(second.refreshToken);
    const unrelated = await tokens.issue(['messages:send']);

    await expect(tokens.refresh(first.refreshToken)).rejects.toMatchObject(rejectedAs('revoked'));

    await expect(tokens.verify(third.accessToken, 'access')).rejects.toMatchObject(rejectedAs('revoked'));
    await expect(tokens.refresh(third.refreshToken)).rejects.toMatchObject(rejectedAs('revoked'));
    await expect(tokens.verify(unrelated.accessToken, 'access')).resolves.toMatchObject({
      jti: unrelated.id,
    });
  });

  it('carries the scopes and lifetime of the original request through every rotation', async () => {
    const { clock, open } = setup();
    const tokens = await open();
    const first = await tokens.issue(['inbox:list', 'inbox:read'], 300);
    const second = await tokens.refresh(first.refreshToken);
    const third = await tokens.refresh(second.refreshToken);

    expect(third.expiresAt).toBe(clock.now() + 300_000);
    expect([...(await tokens.verify(third.accessToken, 'access')).scopes]).toEqual([
      'inbox:list',
      'inbox:read',
    ]);
  });

  it('lets only one of two simultaneous refreshes of the same token succeed', async () => {
    const tokens = await setup().open();
    const pair = await tokens.issue(['messages:send']);

    const outcomes = await Promise.allSettled([
      tokens.refresh(pair.refreshToken),
      tokens.refresh(pair.refreshToken),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('refuses an access token presented as a refresh token', async () => {
    const tokens = await setup().open();
    const pair = await tokens.issue(['messages:send']);
    await expect(tokens.refresh(pair.accessToken)).rejects.toMatchObject(rejectedAs('wrong-use'));
  });

  it('refuses a refresh token after its 720 h', async () => {
    const { clock, open } = setup();
    const tokens = await open();
    const pair = await tokens.issue(['messages:send']);

    await clock.advance(720 * hour);
    await expect(tokens.refresh(pair.refreshToken)).rejects.toMatchObject(rejectedAs('expired'));
  });
});

describe('TokenService.revoke', () => {
  it('revokes an access token together with its refresh token, and nothing else', async () => {
    const tokens = await setup().open();
    const revokedPair = await tokens.issue(['messages:send']);
    const otherPair = await tokens.issue(['messages:send']);

    await tokens.revoke(revokedPair.id);

    await expect(tokens.verify(revokedPair.accessToken, 'access')).rejects.toMatchObject(
      rejectedAs('revoked'),
    );
    await expect(tokens.refresh(revokedPair.refreshToken)).rejects.toMatchObject(rejectedAs('revoked'));
    await expect(tokens.verify(otherPair.accessToken, 'access')).resolves.toMatchObject({
      jti: otherPair.id,
    });
  });

  it('accepts revoking the same id twice', async () => {
    const tokens = await setup().open();
    const pair = await tokens.issue(['messages:send']);
    await tokens.revoke(pair.id);
    await expect(tokens.revoke(pair.id)).resolves.toBeUndefined();
  });

  it('refuses an id this gateway could not have issued with 400 naming jti', async () => {
    const tokens = await setup().open();
    for (const jti of ['', '__proto__', 'x'.repeat(200), 'has spaces in it here!']) {
      await expect(tokens.revoke(jti)).rejects.toMatchObject({
        code: ErrorCode.ValidationFailed,
        field: 'jti',
      });
    }
  });
});

describe('TokenService persistence', () => {
  it('keeps the signing secret, so tokens stay valid after a restart', async () => {
    const { open } = setup();
    const pair = await (await open()).issue(['logs:read']);

    const restarted = await open();
    await expect(restarted.verify(pair.accessToken, 'access')).resolves.toMatchObject({ jti: pair.id });
  });

  it('keeps revocations, so a revoked or rotated token stays refused after a restart', async () => {
    const { open } = setup();
    const tokens = await open();
    const revokedPair = await tokens.issue(['logs:read']);
    const rotatedPair = await tokens.issue(['logs:read']);
    await tokens.revoke(revokedPair.id);
    await tokens.refresh(rotatedPair.refreshToken);

    const restarted = await open();
    await expect(restarted.verify(revokedPair.accessToken, 'access')).rejects.toMatchObject(
      rejectedAs('revoked'),
    );
    await expect(restarted.refresh(revokedPair.refreshToken)).rejects.toMatchObject(rejectedAs('revoked'));
    await expect(restarted.refresh(rotatedPair.refreshToken)).rejects.toMatchObject(rejectedAs('revoked'));
  });

  it('forgets a family once it is over, so the document holds live families only', async () => {
    const { clock, disk, open } = setup();
    const tokens = await open();
    const old = await tokens.issue(['logs:read']);
    expect(Object.keys(disk.read().families ?? {})).toHaveLength(1);

    await clock.advance(720 * hour);
    const recent = await tokens.issue(['logs:read']);
    expect(Object.keys(disk.read().families ?? {})).toHaveLength(1);
    expect(tokens.list().map((family) => family.id)).toEqual([recent.id]);
    await expect(tokens.refresh(old.refreshToken)).rejects.toMatchObject(rejectedAs('expired'));
  });

  it('creates a 256-bit secret on first start and stores it in the document', async () => {
    const { disk, open } = setup();
    await open();
    expect(Buffer.from(disk.read().secret ?? '', 'base64url')).toHaveLength(32);
  });
});

describe('TokenService.issueSession', () => {
  it('issues an all:any access token that lives 15 minutes', async () => {
    const { clock, open } = setup();
    const tokens = await open();
    const session = await tokens.issueSession();

    expect([...(await tokens.verify(session.accessToken, 'access')).scopes]).toEqual(['all:any']);
    await clock.advance(15 * 60_000);
    await expect(tokens.verify(session.accessToken, 'access')).rejects.toMatchObject(rejectedAs('expired'));
  });
});

describe('containing a leaked token (issue 36, review 3)', () => {
  it('ends every pair rotated from a token when the id given at its issue is revoked', async () => {
    const tokens = await setup().open();
    const first = await tokens.issue(['messages:send']);
    const second = await tokens.refresh(first.refreshToken);
    const third = await tokens.refresh(second.refreshToken);

    await tokens.revoke(first.id);

    await expect(tokens.verify(third.accessToken, 'access')).rejects.toMatchObject(rejectedAs('revoked'));
    await expect(tokens.refresh(third.refreshToken)).rejects.toMatchObject(rejectedAs('revoked'));
  });

  it('ends the whole family whichever of its ids is revoked', async () => {
    const tokens = await setup().open();
    const first = await tokens.issue(['messages:send']);
    const second = await tokens.refresh(first.refreshToken);
    const third = await tokens.refresh(second.refreshToken);

    await tokens.revoke(second.id);

    await expect(tokens.verify(third.accessToken, 'access')).rejects.toMatchObject(rejectedAs('revoked'));
  });

  it('ends a family at the lifetime its refresh token had at issue, however often it rotates', async () => {
    const { clock, open } = setup();
    const tokens = await open();
    const issuedAt = clock.now();
    let pair = await tokens.issue(['messages:send'], 3_600);
    for (let day = 0; day < 29; day++) {
      await clock.advance(24 * hour);
      pair = await tokens.refresh(pair.refreshToken);
    }
    await clock.advance(23 * hour + 30 * 60_000);
    // Half an hour before the family's end: the new access token ends with the family.
    pair = await tokens.refresh(pair.refreshToken);
    expect(pair.expiresAt).toBe(issuedAt + 720 * hour);
    await clock.advance(30 * 60_000);
    await expect(tokens.refresh(pair.refreshToken)).rejects.toMatchObject({ code: ErrorCode.Unauthorized });
    await expect(tokens.verify(pair.accessToken, 'access')).rejects.toMatchObject({
      code: ErrorCode.Unauthorized,
    });
  });

  it('ends every token at once with revokeAll, the window session included', async () => {
    const tokens = await setup().open();
    const api = await tokens.issue(['messages:send'], 30 * 24 * 3_600);
    const rotated = await tokens.refresh((await tokens.issue(['logs:read'])).refreshToken);
    const session = await tokens.issueSession();

    await tokens.revokeAll();

    for (const token of [api.accessToken, rotated.accessToken, session.accessToken]) {
      await expect(tokens.verify(token, 'access')).rejects.toMatchObject(rejectedAs('revoked'));
    }
    await expect(tokens.refresh(api.refreshToken)).rejects.toMatchObject(rejectedAs('revoked'));
    await expect(tokens.verify((await tokens.issueSession()).accessToken, 'access')).resolves.toBeDefined();
  });

  it('lists the live tokens by the id given at issue, with what made them and when they end', async () => {
    const { clock, open } = setup();
    const tokens = await open();
    const api = await tokens.issue(['messages:send', 'messages:read'], 600);
    await tokens.refresh(api.refreshToken);
    const minted = await tokens.issue(['logs:read'], undefined, clock.now() + 600_000);
    const session = await tokens.issueSession();
    const revoked = await tokens.issue(['logs:read']);
    await tokens.revoke(revoked.id);

    const listed = tokens.list();
    expect(listed.map((family) => family.id).sort()).toEqual([api.id, minted.id, session.id].sort());
    expect(listed.find((family) => family.id === api.id)).toMatchObject({
      scopes: ['messages:send', 'messages:read'],
      issuedBy: 'password',
      issuedAt: clock.now(),
      expiresAt: clock.now() + 720 * hour,
      refreshedAt: clock.now(),
    });
    expect(listed.find((family) => family.id === minted.id)).toMatchObject({
      issuedBy: 'token',
      expiresAt: clock.now() + 600_000,
    });
    expect(listed.find((family) => family.id === session.id)).toMatchObject({
      scopes: ['all:any'],
      issuedBy: 'window',
      expiresAt: clock.now() + 15 * 60_000,
    });
    // The family a verified token belongs to, so a list can mark the caller's own.
    const verified = await tokens.verify(session.accessToken, 'access');
    expect(verified.family).toBe(session.id);
  });

  it('keeps the document small: 2,000 tokens issued and revoked, and 2,000 rotations, leave one entry', async () => {
    const { disk, open } = setup();
    const tokens = await open();
    for (let round = 0; round < 2_000; round++) {
      await tokens.revoke((await tokens.issue(['logs:read'])).id);
    }
    let pair = await tokens.issue(['logs:read']);
    for (let round = 0; round < 2_000; round++) pair = await tokens.refresh(pair.refreshToken);
    expect(JSON.stringify(disk.read()).length).toBeLessThan(1_000);
  });

  it('forgets expired families, and beyond its limit the one used least recently', async () => {
    const { clock, disk, open } = setup();
    const tokens = await open({ maxFamilies: 3 });
    const short = await tokens.issue(['logs:read'], 60, clock.now() + 60_000);
    const a = await tokens.issue(['logs:read']);
    const b = await tokens.issue(['logs:read']);
    await clock.advance(61_000);
    const c = await tokens.issue(['logs:read']);
    expect(Object.keys(disk.read().families ?? {})).toHaveLength(3);
    expect(tokens.list().map((family) => family.id)).not.toContain(short.id);

    await tokens.verify(a.accessToken, 'access');
    await tokens.issue(['logs:read']);
    await expect(tokens.verify(b.accessToken, 'access')).rejects.toMatchObject(rejectedAs('revoked'));
    await expect(tokens.verify(a.accessToken, 'access')).resolves.toBeDefined();
    await expect(tokens.verify(c.accessToken, 'access')).resolves.toBeDefined();
  });

  it("lets a holder that mints tokens without end forget only its own oldest, never another's", async () => {
    const { disk, open } = setup();
    const tokens = await open({ maxFamilies: 50, maxFamiliesPerHolder: 5 });
    const owners = await tokens.issue(['logs:read']);
    const first = await tokens.issue(['messages:send'], undefined, undefined, 'app:shop');
    for (let minted = 0; minted < 300; minted++)
      await tokens.issue(['messages:send'], undefined, undefined, 'app:shop');
    await expect(tokens.verify(owners.accessToken, 'access')).resolves.toBeDefined();
    await expect(tokens.verify(first.accessToken, 'access')).rejects.toMatchObject(rejectedAs('revoked'));
    expect(tokens.list().filter((family) => family.user === 'app:shop')).toHaveLength(5);
    expect(Object.keys(disk.read().families ?? {})).toHaveLength(6);
  });
});

describe('tokens signed before token families existed (the upgrade of issue 36)', () => {
  /** A pair as the previous version signed it: random ids, `ati`, the grant in the refresh token. */
  async function legacyPair(secret: string, now: number, jti = randomBytes(16).toString('base64url')) {
    const key = new Uint8Array(Buffer.from(secret, 'base64url'));
    const iat = now / 1000;
    const fam = randomBytes(16).toString('base64url');
    const signed = (claims: Record<string, unknown>, id: string, exp: number) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setJti(id)
        .setIssuer('desktop-sms-gateway')
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key);
    return {
      jti,
      access: await signed({ scopes: ['logs:read'], token_use: 'access', fam }, jti, iat + 3_600),
      refresh: await signed(
        {
          scopes: ['tokens:refresh'],
          token_use: 'refresh',
          fam,
          ati: jti,
          grant_scopes: ['logs:read'],
          grant_ttl: 3_600,
        },
        randomBytes(16).toString('base64url'),
        iat + 720 * 3_600,
      ),
    };
  }

  async function upgraded(revoked: Record<string, number> = {}) {
    const clock = new ManualClock();
    const secret = randomBytes(32).toString('base64url');
    const migrate = tokenDocumentMigrations[0];
    if (!migrate) throw new Error('no migration');
    const disk = new JsonDisk(migrate({ secret, revoked }) as TokenDocumentData);
    const open = () => openTokenService({ document: disk.open(), clock, logger: silentLogger });
    return { clock, disk, open, pair: (jti?: string) => legacyPair(secret, clock.now(), jti) };
  }

  it('honours them until they expire, and rotates a refresh token into a family of its own', async () => {
    const { open, pair } = await upgraded();
    const old = await pair();
    const tokens = await open();
    await expect(tokens.verify(old.access, 'access')).resolves.toMatchObject({ jti: old.jti });

    const rotated = await tokens.refresh(old.refresh);
    await expect(tokens.verify(rotated.accessToken, 'access')).resolves.toBeDefined();
    expect(tokens.list().map((family) => family.id)).toEqual([rotated.id]);
    // The legacy pair was used: its access token ends, and its refresh token presented again fails.
    await expect(tokens.verify(old.access, 'access')).rejects.toMatchObject(rejectedAs('revoked'));
    await expect(tokens.refresh(old.refresh)).rejects.toMatchObject(rejectedAs('revoked'));
  });

  it('keeps their revocations, revokes them by id and ends them all with revokeAll', async () => {
    const revokedBefore = randomBytes(16).toString('base64url');
    const { open, pair } = await upgraded({ [revokedBefore]: Date.UTC(2027, 0, 1) });
    const [before, byId, kept, other] = [await pair(revokedBefore), await pair(), await pair(), await pair()];
    const tokens = await open();
    await expect(tokens.verify(before.access, 'access')).rejects.toMatchObject(rejectedAs('revoked'));

    await tokens.revoke(byId.jti);
    await expect(tokens.verify(byId.access, 'access')).rejects.toMatchObject(rejectedAs('revoked'));
    await expect(tokens.refresh(byId.refresh)).rejects.toMatchObject(rejectedAs('revoked'));
    await expect(tokens.verify(kept.access, 'access')).resolves.toBeDefined();

    await tokens.revokeAll();
    await expect(tokens.verify(other.access, 'access')).rejects.toMatchObject(rejectedAs('revoked'));
  });

  it('drops what it kept for them once the longest of them has expired', async () => {
    const { clock, disk, open, pair } = await upgraded();
    const old = await pair();
    await open();
    expect(disk.read().legacy?.until).toBe(clock.now() + 720 * hour);
    await clock.advance(720 * hour);
    await open();
    expect(disk.read().legacy).toBeUndefined();
    await expect((await open()).refresh(old.refresh)).rejects.toMatchObject({ code: ErrorCode.Unauthorized });
  });
});
