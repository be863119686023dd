import { describe, expect, it } from 'vitest';
import { type AccessControl, createAccessControl, type Principal } from '../../server/auth/accessControl.js';
import { type AppDocumentData, openAppDirectory } from '../../server/auth/appDirectory.js';
import { createAttemptPacer } from '../../server/auth/attemptPacer.js';
import { type CredentialsDocumentData, openBasicCredentials } from '../../server/auth/credentials.js';
import { createHashingGate } from '../../server/auth/hashingGate.js';
import { createLoginThrottle, TooManyAttemptsError } from '../../server/auth/loginThrottle.js';
import { type Scope, Scopes } from '../../server/auth/scopes.js';
import { openStaffDirectory, ownerId, type StaffDocumentData } from '../../server/auth/staffDirectory.js';
import { openTokenService, type TokenDocumentData } from '../../server/auth/tokenService.js';
import { ManualClock } from '../../server/clock/manualClock.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
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

  it('locks an IP out after ten wrong passwords, refusing even the right one with 429 until the window frees', async () => {
    const { access, clock } = await setup();
    for (let attempt = 0; attempt < 10; attempt++) {
      expect(await outcome(access.authenticate({ authorization: bad, ip }, 'access'))).toBe(
        String(ErrorCode.Unauthorized),
      );
    }

    const locked = access.authenticate({ authorization: good, ip }, 'access');
    await expect(locked).rejects.toBeInstanceOf(TooManyAttemptsError);
    await expect(locked).rejects.toMatchObject({ code: ErrorCode.TooManyAttempts, retryAfterSeconds: 300 });
    // Another client with no failures of its own is not locked out with it (issue 36).
    expect(await outcome(access.authenticate({ authorization: good, ip: '192.0.2.8' }, 'access'))).toBe('ok');

    await clock.advance(5 * 60_000);
    expect(await outcome(access.authenticate({ authorization: good, ip }, 'access'))).toBe('ok');
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

  it('keeps valid tokens and already verified credentials working while an address is locked out (review 3)', async () => {
    const { access, tokens } = await setup();
    expect(await outcome(access.authenticate({ authorization: good, ip }, 'access'))).toBe('ok');
    const pair = await tokens.issue(['messages:send']);
    for (let attempt = 0; attempt < 12; attempt++) {
      await outcome(access.authenticate({ authorization: bad, ip }, 'access'));
    }
    expect(await outcome(access.authenticate({ authorization: bad, ip }, 'access'))).toBe(
      String(ErrorCode.TooManyAttempts),
    );
    const bearer = `Bearer ${pair.accessToken}`;
    expect(await outcome(access.authenticate({ authorization: bearer, ip }, 'access'))).toBe('ok');
    expect(await outcome(access.authenticate({ authorization: good, ip }, 'access'))).toBe('ok');
  });

  it('counts an attempt before hashing: 50 concurrent wrong passwords get at most 10 answers (review 2)', async () => {
    const { access } = await setup();
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        outcome(
          access.authenticate({ authorization: basicHeader('admin', `wrong horse ${index}`), ip }, 'access'),
        ),
      ),
    );
    expect(outcomes.filter((result) => result === String(ErrorCode.Unauthorized)).length).toBeLessThanOrEqual(
      10,
    );
    expect(
      outcomes.filter((result) => result === String(ErrorCode.TooManyAttempts)).length,
    ).toBeGreaterThanOrEqual(40);
  });

  it('lets 64 connections opened at once with the right pair all in, none refused with 429', async () => {
    const { access } = await setup();
    const outcomes = await Promise.all(
      Array.from({ length: 64 }, () => outcome(access.authenticate({ authorization: good, ip }, 'access'))),
    );
    expect(outcomes).toEqual(Array.from({ length: 64 }, () => 'ok'));
  });

  it('counts one wrong pair sent on 50 connections at once as one guess', async () => {
    const { access } = await setup();
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () => outcome(access.authenticate({ authorization: bad, ip }, 'access'))),
    );
    expect(outcomes).toEqual(Array.from({ length: 50 }, () => String(ErrorCode.Unauthorized)));
    // Nine more distinct guesses are allowed before the lock: the fifty counted once.
    for (let attempt = 0; attempt < 9; attempt++) {
      const header = basicHeader('admin', `guess ${attempt}`);
      expect(await outcome(access.authenticate({ authorization: header, ip }, 'access'))).toBe(
        String(ErrorCode.Unauthorized),
      );
    }
    expect(await outcome(access.authenticate({ authorization: bad, ip }, 'access'))).toBe(
      String(ErrorCode.TooManyAttempts),
    );
  });

  it('treats every loopback address as one client (review 2)', async () => {
    const { access } = await setup();
    const loopbacks = ['127.0.0.1', '127.0.0.2', '127.1.2.3', '::1', '::ffff:127.0.0.9'];
    for (let attempt = 0; attempt < 10; attempt++) {
      await outcome(
        access.authenticate(
          { authorization: bad, ip: loopbacks[attempt % loopbacks.length] ?? '' },
          'access',
        ),
      );
    }
    expect(await outcome(access.authenticate({ authorization: bad, ip: '127.200.0.1' }, 'access'))).toBe(
      String(ErrorCode.TooManyAttempts),
    );
  });

  it('limits guesses per user name across addresses: a failed address is refused, a fresh one waits its turn (review 2)', async () => {
    const { access, clock } = await setup();
    for (let attempt = 0; attempt < 10; attempt++) {
      await outcome(access.authenticate({ authorization: bad, ip: `198.51.100.${attempt}` }, 'access'));
    }
    const another = basicHeader('admin', 'another guess');
    expect(await outcome(access.authenticate({ authorization: another, ip: '198.51.100.0' }, 'access'))).toBe(
      String(ErrorCode.TooManyAttempts),
    );
    const fresh = ['198.51.100.200', '198.51.100.201'].map((ip) =>
      outcome(access.authenticate({ authorization: bad, ip }, 'access')),
    );
    await clock.advance(1_000);
    expect(await Promise.all(fresh)).toEqual([
      String(ErrorCode.Unauthorized),
      String(ErrorCode.Unauthorized),
    ]);
    const otherUser = basicHeader('someone', 'wrong horse');
    expect(
      await outcome(access.authenticate({ authorization: otherUser, ip: '198.51.100.202' }, 'access')),
    ).toBe(String(ErrorCode.Unauthorized));
  });

  describe('a right password from a client with no failures of its own (issue 36, review 6)', () => {
    const loopback = '127.0.0.1';
    const guesser = { ip: loopback, userAgent: 'curl/8.5.0' };
    const homeAssistant = { ip: loopback, userAgent: 'HomeAssistant/2026.1 aiohttp/3.11' };

    it('is let in after another loopback client made ten wrong guesses, while the guesser stays locked', async () => {
      const { access } = await setup();
      for (let attempt = 0; attempt < 10; attempt++) {
        await outcome(access.authenticate({ authorization: bad, ...guesser }, 'access'));
      }
      expect(await outcome(access.authenticate({ authorization: good, ...guesser }, 'access'))).toBe(
        String(ErrorCode.TooManyAttempts),
      );
      expect(await outcome(access.authenticate({ authorization: good, ...homeAssistant }, 'access'))).toBe(
        'ok',
      );
    });

    it('is let in while one guess every 30 s keeps the user name locked', async () => {
      const { access, clock } = await setup();
      const guessers = Array.from({ length: 40 }, (_, index) => ({ ip: `198.51.100.${index}` }));
      for (const client of guessers) {
        await clock.advance(30_000);
        await outcome(access.authenticate({ authorization: bad, ...client }, 'access'));
      }
      expect(await outcome(access.authenticate({ authorization: good, ...homeAssistant }, 'access'))).toBe(
        'ok',
      );
    });

    it('lets a guesser that takes a fresh identity per guess try at most once a second once the name is locked', async () => {
      const { access, clock } = await setup();
      const bot = (name: string) => ({ ip: loopback, userAgent: `bot ${name}` });
      for (let attempt = 0; attempt < 10; attempt++) {
        await outcome(access.authenticate({ authorization: bad, ...bot(String(attempt)) }, 'access'));
      }
      const answered: string[] = [];
      const guesses = Array.from({ length: 3 }, (_, index) =>
        outcome(
          access.authenticate(
            { authorization: basicHeader('admin', `guess ${index}`), ...bot(`x${index}`) },
            'access',
          ),
        ).then((result) => answered.push(result)),
      );
      // The hash runs on real threads; the spacing is on the manual clock, which stands still.
      await pollUntil(() => answered.length >= 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(answered).toHaveLength(1);
      await clock.advance(1_000);
      await pollUntil(() => answered.length >= 2);
      await clock.advance(1_000);
      await Promise.all(guesses);
      expect(answered).toEqual(Array.from({ length: 3 }, () => String(ErrorCode.Unauthorized)));
      // An identity that has failed once is refused at once while the name stays locked.
      expect(await outcome(access.authenticate({ authorization: bad, ...bot('x0') }, 'access'))).toBe(
        String(ErrorCode.TooManyAttempts),
      );
    });

    it('checks one right pair sent on many connections at once by a fresh client once, not once a second', async () => {
      const { access } = await setup();
      for (let attempt = 0; attempt < 10; attempt++) {
        await outcome(access.authenticate({ authorization: bad, ...guesser }, 'access'));
      }
      const outcomes = await Promise.all(
        Array.from({ length: 32 }, () =>
          outcome(access.authenticate({ authorization: good, ...homeAssistant }, 'access')),
        ),
      );
      expect(outcomes).toEqual(Array.from({ length: 32 }, () => 'ok'));
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
