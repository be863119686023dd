import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { type Scope, Scopes } from '../../server/contract/domain/scopes.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import {
  type AccessControl,
  createAccessControl,
  type Principal,
} from '../../server/services/auth/accessControl.js';
import { type AppDocumentData, openAppDirectory } from '../../server/services/auth/appDirectory.js';
import { createAttemptPacer } from '../../server/services/auth/attemptPacer.js';
import {
  type CredentialsDocumentData,
  openBasicCredentials,
} from '../../server/services/auth/credentials.js';
import { createHashingGate } from '../../server/services/auth/hashingGate.js';
import { createLoginThrottle } from '../../server/services/auth/loginThrottle.js';
import {
  openStaffDirectory,
  ownerId,
  type StaffDocumentData,
} from '../../server/services/auth/staffDirectory.js';
import { openTokenService, type TokenDocumentData } from '../../server/services/auth/tokenService.js';
import { pollUntil } from '../support/pollUntil.js';
import { JsonDisk } from './support/jsonDocument.js';

const basicHeader = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

async function setup() {
  const clock = new ManualClock();
  const credentials = await openBasicCredentials({
    document: new JsonDisk<CredentialsDocumentData>({}).open(),
    username: 'admin',
    password: 'correct horse',
    scryptCost: { N: 1_024, r: 8, p: 1 },
  });
  const tokens = await openTokenService({
    document: new JsonDisk<TokenDocumentData>({}).open(),
    clock,
    logger: silentLogger,
  });
  const throttle = createLoginThrottle({ clock, maxFailures: 10, windowMs: 5 * 60_000 });
  const pacer = createAttemptPacer({ clock });
  const staff = openStaffDirectory({
    document: new JsonDisk<StaffDocumentData>({}).open(),
    owner: credentials,
    hashing: createHashingGate(),
    clock,
  });
  const apps = openAppDirectory({
    document: new JsonDisk<AppDocumentData>({}).open(),
    hashing: createHashingGate(),
    clock,
    nameTaken: () => false,
  });
  const access = createAccessControl({
    credentials,
    staff,
    apps,
    smppLogins: { login: () => undefined },
    tokens,
    throttle,
    pacer,
    clock,
    logger: silentLogger,
  });
  return { clock, tokens, access };
}

const owner = { id: ownerId, name: 'admin', role: 'owner' } as const;
const ip = '192.0.2.7';
const good = basicHeader('admin', 'correct horse');
const bad = basicHeader('admin', 'wrong horse');

async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return String((error as { code?: number }).code);
  }
}

function decision(access: AccessControl, principal: Principal, scope: Scope): 'allow' | 'deny' {
  try {
    access.authorize(principal, scope);
    return 'allow';
  } catch (error) {
    expect(error).toMatchObject({ code: ErrorCode.Forbidden });
    return 'deny';
  }
}

describe('AccessControl.authorize', () => {
  const allButRefresh = Scopes.filter((scope) => scope !== 'tokens:refresh');
  const table: Array<[string, Scope[], Scope, 'allow' | 'deny']> = [
    ['a token with messages:send', ['messages:send'], 'messages:send', 'allow'],
    ['a token with messages:send', ['messages:send'], 'messages:list', 'deny'],
    ['a token with messages:send', ['messages:send'], 'tokens:manage', 'deny'],
    [
      'a token with webhooks:list and webhooks:write',
      ['webhooks:list', 'webhooks:write'],
      'webhooks:write',
      'allow',
    ],
    [
      'a token with webhooks:list and webhooks:write',
      ['webhooks:list', 'webhooks:write'],
      'webhooks:delete',
      'deny',
    ],
    ['a token with inbox:list', ['inbox:list'], 'inbox:read', 'deny'],
    ...allButRefresh.map((scope): [string, Scope[], Scope, 'allow'] => [
      'an all:any token',
      ['all:any'],
      scope,
      'allow',
    ]),
    ['an all:any token', ['all:any'], 'tokens:refresh', 'deny'],
    ['a refresh token', ['tokens:refresh'], 'tokens:refresh', 'allow'],
    ['a refresh token', ['tokens:refresh'], 'messages:send', 'deny'],
  ];

  it.each(table)('%s asking for %j → %s', async (_who, held, scope, expected) => {
    const { access } = await setup();
    const principal: Principal = { kind: 'bearer', scopes: new Set(held), tokenId: 'x', user: owner };
    expect(decision(access, principal, scope)).toBe(expected);
  });

  it('lets Basic credentials hold every scope except the refresh system scope', async () => {
    const { access } = await setup();
    const principal = await access.authenticate({ authorization: good, ip }, 'access');
    for (const scope of Scopes) {
      expect(decision(access, principal, scope)).toBe(scope === 'tokens:refresh' ? 'deny' : 'allow');
    }
  });
});

describe('AccessControl.authenticate', () => {
  it('answers a request without credentials with 401', async () => {
    const { access } = await setup();
    expect(await outcome(access.authenticate({ ip }, 'access'))).toBe(String(ErrorCode.Unauthorized));
    expect(await outcome(access.authenticate({ authorization: '  ', ip }, 'access'))).toBe(
      String(ErrorCode.Unauthorized),
    );
  });

  it('turns right Basic credentials into a basic principal and wrong ones into 401', async () => {
    const { access } = await setup();
    await expect(access.authenticate({ authorization: good, ip }, 'access')).resolves.toMatchObject({
      kind: 'basic',
    });
    expect(await outcome(access.authenticate({ authorization: bad, ip }, 'access'))).toBe(
      String(ErrorCode.Unauthorized),
    );
  });

  it('turns a Bearer access token into a principal holding its scopes and jti', async () => {
    const { access, tokens } = await setup();
    const pair = await tokens.issue(['messages:send', 'logs:read']);

    const principal = await access.authenticate(
      { authorization: `Bearer ${pair.accessToken}`, ip },
      'access',
    );
    expect(principal.kind).toBe('bearer');
    expect(principal.tokenId).toBe(pair.id);
    expect([...principal.scopes].sort()).toEqual(['logs:read', 'messages:send']);
  });

  it.each([
    ['a refresh token on an access route', 'refresh', 'access'],
    ['an access token on the refresh route', 'access', 'refresh'],
  ] as const)('refuses %s with 401', async (_name, presented, route) => {
    const { access, tokens } = await setup();
    const pair = await tokens.issue(['messages:send']);
    const token = presented === 'refresh' ? pair.refreshToken : pair.accessToken;
    expect(await outcome(access.authenticate({ authorization: `Bearer ${token}`, ip }, route))).toBe(
      String(ErrorCode.Unauthorized),
    );
  });

  it('refuses Basic credentials on the refresh route', async () => {
    const { access } = await setup();
    expect(await outcome(access.authenticate({ authorization: good, ip }, 'refresh'))).toBe(
      String(ErrorCode.Unauthorized),
    );
  });

  it('accepts a refresh token on the refresh route as a principal holding only tokens:refresh', async () => {
    const { access, tokens } = await setup();
    const pair = await tokens.issue(['messages:send']);
    const principal = await access.authenticate(
      { authorization: `Bearer ${pair.refreshToken}`, ip },
      'refresh',
    );
    expect([...principal.scopes]).toEqual(['tokens:refresh']);
  });

  it('accepts the UI session token as holding every scope', async () => {
    const { access, tokens } = await setup();
    const session = await tokens.issueSession();
    const principal = await access.authenticate(
      { authorization: `Bearer ${session.accessToken}`, ip },
      'access',
    );
    expect(decision(access, principal, 'settings:write')).toBe('allow');
    expect(decision(access, principal, 'tokens:manage')).toBe('allow');
  });

  it('answers the right password after ten wrong ones from the same client, at its paced turn', async () => {
    const { access, clock } = await setup();
    for (let attempt = 0; attempt < 10; attempt++) {
      expect(await outcome(access.authenticate({ authorization: bad, ip }, 'access'))).toBe(
        String(ErrorCode.Unauthorized),
      );
    }
    // The name has had ten wrong passwords: its checks wait one second each, never refused.
    const right = outcome(access.authenticate({ authorization: good, ip }, 'access'));
    await clock.advance(1_000);
    expect(await right).toBe('ok');
  });

  it('does not count malformed headers or garbage Bearer tokens as password guesses (review 3)', async () => {
    const { access } = await setup();
    const attempts = ['Basic !!!', 'Digest x', 'Bearer not.a.jwt', 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.AAAA'];
    for (let attempt = 0; attempt < 40; attempt++) {
      await outcome(
        access.authenticate({ authorization: attempts[attempt % attempts.length], ip }, 'access'),
      );
    }
    expect(await outcome(access.authenticate({ authorization: good, ip }, 'access'))).toBe('ok');
  });

  it('keeps valid tokens and already verified credentials working at once while a name is guessed', async () => {
    const { access, tokens } = await setup();
    expect(await outcome(access.authenticate({ authorization: good, ip }, 'access'))).toBe('ok');
    const pair = await tokens.issue(['messages:send']);
    for (let attempt = 0; attempt < 10; attempt++) {
      await outcome(
        access.authenticate({ authorization: basicHeader('admin', `guess ${attempt}`), ip }, 'access'),
      );
    }
    const bearer = `Bearer ${pair.accessToken}`;
    expect(await outcome(access.authenticate({ authorization: bearer, ip }, 'access'))).toBe('ok');
    expect(await outcome(access.authenticate({ authorization: good, ip }, 'access'))).toBe('ok');
  });

  it('counts an attempt before hashing: of 50 concurrent wrong passwords 11 are checked at once, the rest paced', async () => {
    const { access, clock } = await setup();
    const answered: string[] = [];
    const guesses = Array.from({ length: 50 }, (_, index) =>
      outcome(
        access.authenticate({ authorization: basicHeader('admin', `wrong horse ${index}`), ip }, 'access'),
      ).then((result) => answered.push(result)),
    );
    // The hash runs on real threads; the pacing is on the manual clock, which stands still.
    // Ten before the name is paced, and the first paced turn, which starts at once.
    await pollUntil(() => answered.length >= 11);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toHaveLength(11);
    // One more each second, each hashed before the next second comes.
    for (let second = 1; second <= 39; second++) {
      await clock.advance(1_000);
      await pollUntil(() => answered.length >= 11 + second);
    }
    await Promise.all(guesses);
    expect(answered).toEqual(Array.from({ length: 50 }, () => String(ErrorCode.Unauthorized)));
  });

  it('lets 64 connections opened at once with the right pair all in, none refused with 429', async () => {
    const { access } = await setup();
    const outcomes = await Promise.all(
      Array.from({ length: 64 }, () => outcome(access.authenticate({ authorization: good, ip }, 'access'))),
    );
    expect(outcomes).toEqual(Array.from({ length: 64 }, () => 'ok'));
  });

  it('counts one wrong pair sent on 50 connections at once as one guess', async () => {
    const { access, clock } = await setup();
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () => outcome(access.authenticate({ authorization: bad, ip }, 'access'))),
    );
    expect(outcomes).toEqual(Array.from({ length: 50 }, () => String(ErrorCode.Unauthorized)));
    // Nine more distinct guesses are checked at once: the fifty counted once.
    for (let attempt = 0; attempt < 9; attempt++) {
      const header = basicHeader('admin', `guess ${attempt}`);
      expect(await outcome(access.authenticate({ authorization: header, ip }, 'access'))).toBe(
        String(ErrorCode.Unauthorized),
      );
    }
    // Now paced: of two more guesses, the second waits a second after the first.
    const answered: string[] = [];
    const next = ['guess 9', 'guess 10'].map((password) =>
      outcome(access.authenticate({ authorization: basicHeader('admin', password), ip }, 'access')).then(
        (result) => answered.push(result),
      ),
    );
    await pollUntil(() => answered.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toHaveLength(1);
    await clock.advance(1_000);
    await Promise.all(next);
    expect(answered).toEqual([String(ErrorCode.Unauthorized), String(ErrorCode.Unauthorized)]);
  });

  describe('a name that has had ten wrong passwords (issue 46)', () => {
    it('paces its checks to one a second, from any address, any program and any way in', async () => {
      const { access, clock } = await setup();
      const clients = ['127.0.0.1', '127.0.0.2', '::1', '198.51.100.7'];
      for (let attempt = 0; attempt < 10; attempt++) {
        await outcome(
          access.authenticate({ authorization: bad, ip: clients[attempt % clients.length] ?? '' }, 'access'),
        );
      }
      const answered: string[] = [];
      const checks = clients.map((client, index) =>
        outcome(
          access.authenticate(
            { authorization: basicHeader('admin', `guess ${index}`), ip: client },
            'access',
          ),
        ).then((result) => answered.push(result)),
      );
      await pollUntil(() => answered.length >= 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(answered).toHaveLength(1);
      await clock.advance(1_000);
      await pollUntil(() => answered.length >= 2);
      await clock.advance(2_000);
      await Promise.all(checks);
      // Another name is not slowed.
      expect(
        await outcome(access.authenticate({ authorization: basicHeader('someone', 'x'), ip }, 'access')),
      ).toBe(String(ErrorCode.Unauthorized));
    });

    it('still checks the right password while one guess every 30 s keeps the name paced', async () => {
      const { access, clock } = await setup();
      for (let attempt = 0; attempt < 40; attempt++) {
        await clock.advance(30_000);
        const guess = outcome(access.authenticate({ authorization: bad, ip: '127.0.0.1' }, 'access'));
        await clock.advance(1_000);
        await guess;
      }
      const right = outcome(access.authenticate({ authorization: good, ip: '127.0.0.1' }, 'access'));
      await clock.advance(1_000);
      expect(await right).toBe('ok');
    });

    it('checks one right pair sent on many connections at once once, not once a second', async () => {
      const { access, clock } = await setup();
      for (let attempt = 0; attempt < 10; attempt++) {
        await outcome(access.authenticate({ authorization: bad, ip }, 'access'));
      }
      const outcomes = Promise.all(
        Array.from({ length: 32 }, () => outcome(access.authenticate({ authorization: good, ip }, 'access'))),
      );
      await clock.advance(1_000);
      expect(await outcomes).toEqual(Array.from({ length: 32 }, () => 'ok'));
    });
  });

  it('does not count expired tokens, so a client can still refresh after many calls with one', async () => {
    const { access, clock, tokens } = await setup();
    const pair = await tokens.issue(['messages:send'], 60);
    await clock.advance(61_000);
    for (let attempt = 0; attempt < 20; attempt++) {
      expect(
        await outcome(access.authenticate({ authorization: `Bearer ${pair.accessToken}`, ip }, 'access')),
      ).toBe(String(ErrorCode.Unauthorized));
    }

    const auth = `Bearer ${pair.refreshToken}`;
    expect(await outcome(access.authenticate({ authorization: auth, ip }, 'refresh'))).toBe('ok');
  });

  it('refuses a revoked token with 401', async () => {
    const { access, tokens } = await setup();
    const pair = await tokens.issue(['messages:send']);
    await tokens.revoke(pair.id);
    expect(
      await outcome(access.authenticate({ authorization: `Bearer ${pair.accessToken}`, ip }, 'access')),
    ).toBe(String(ErrorCode.Unauthorized));
  });
});
