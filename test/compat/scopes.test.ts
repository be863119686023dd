import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayUnderTest, mounts, startGatewayUnderTest } from './support/gatewayUnderTest.js';
import {
  requestableScopes,
  requiredScope,
  routeName,
  type SpecRoute,
  specRoutes,
} from './support/specRoutes.js';

/**
 * A token holding exactly one scope can do exactly what that scope grants (spec: Authentication,
 * scope table): every route is called with every single-scope token, at every mount and alias.
 * "Allowed" means neither 401 nor 403 — the probe may still be refused for its content (an
 * unknown id is 404, an empty recipient list 400), which shows the scope check let it through.
 */
type Verdict = 'allowed' | 'forbidden' | `answered ${number}`;

function verdict(status: number): Verdict {
  if (status === 403) return 'forbidden';
  return status === 401 ? 'answered 401' : 'allowed';
}

/** What the spec's scope table says each single-scope token gets on this route. */
function expectedVerdicts(route: SpecRoute): Record<string, Verdict> {
  const scope = requiredScope(route);
  return Object.fromEntries(
    requestableScopes.map((held) => {
      if (route.access === 'public') return [held, 'allowed'];
      // Access tokens are the wrong kind of credential here, whatever they hold.
      if (route.access === 'refresh-token') return [held, 'answered 401'];
      return [held, held === scope || held === 'all:any' ? 'allowed' : 'forbidden'];
    }),
  );
}

/** docs/decisions.md#mounts: our own routes live under this prefix, and /metrics and /mcp, at the root only. */
const extensionPrefix = '/gateway/v1/';
const isOurs = (path: string) => path.startsWith(extensionPrefix) || path === '/metrics' || path === '/mcp';

let gateway: GatewayUnderTest;
const tokenFor = new Map<string, string>();
const issueTokens = async () => {
  for (const scope of requestableScopes) tokenFor.set(scope, await gateway.bearer([scope]));
};
beforeAll(async () => {
  gateway = await startGatewayUnderTest();
  await issueTokens();
});
afterAll(async () => {
  await gateway.stop();
});

const call = (route: SpecRoute, base: string, path: string, authorization: string | null) =>
  gateway.request(route.method, `${base}${path}`, { json: route.probe.json, authorization });

describe.each(mounts)('single-scope tokens at base "%s"', (base) => {
  for (const route of specRoutes) {
    for (const path of [route.probe.path, ...(route.aliasProbes ?? [])]) {
      const grantedTo = requiredScope(route) ?? route.access;
      it(`${route.method} ${path} is open to ${grantedTo === 'public' ? 'everyone' : grantedTo}`, async () => {
        const seen: Record<string, Verdict> = {};
        for (const scope of requestableScopes) {
          seen[scope] = verdict((await call(route, base, path, tokenFor.get(scope) ?? null)).status);
        }
        expect(seen).toEqual(expectedVerdicts(route));
      });
    }
  }
});

describe('the system scope tokens:refresh', () => {
  it('cannot be requested for a token', async () => {
    const response = await gateway.request('POST', '/auth/token', { json: { scopes: ['tokens:refresh'] } });
    expect(response.status).toBe(400);
  });

  it('lets a refresh token open POST /auth/token/refresh and no other authenticated route', async () => {
    const { refresh_token } = await gateway.issueTokens(['all:any']);
    const seen: Record<string, number> = {};
    for (const route of specRoutes.filter((candidate) => candidate.access !== 'refresh-token')) {
      seen[routeName(route)] = (await call(route, '', route.probe.path, `Bearer ${refresh_token}`)).status;
    }
    const publicRoutes = new Set(specRoutes.filter((route) => route.access === 'public').map(routeName));
    expect(
      Object.entries(seen).filter(([name, status]) => status !== 401 && !publicRoutes.has(name)),
    ).toEqual([]);
    const refresh = specRoutes.find((route) => route.access === 'refresh-token');
    expect(refresh && (await call(refresh, '', refresh.probe.path, `Bearer ${refresh_token}`)).status).toBe(
      201,
    );
  });
});

interface OpenApiDocument {
  paths: Record<string, Record<string, { 'x-required-scope'?: string; security?: unknown[] }>>;
}

/** Every documented operation with the scope it documents (undefined: public or refresh-token). */
async function documentedOperations() {
  const document = (await gateway.request('GET', '/docs/openapi.json', { authorization: null }))
    .body as OpenApiDocument;
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      method: method.toUpperCase() as SpecRoute['method'],
      path,
      scope: operation['x-required-scope'],
    })),
  );
}

describe('our extensions under /gateway/v1/, at /metrics and at /mcp', () => {
  it('are each open to exactly the scope the OpenAPI document names for them', async () => {
    const extensions = (await documentedOperations()).filter((operation) => isOurs(operation.path));
    expect(extensions.length).toBeGreaterThan(0);
    const seen: Record<string, Record<string, Verdict>> = {};
    const expected: Record<string, Record<string, Verdict>> = {};
    for (const operation of extensions) {
      const route: SpecRoute = {
        method: operation.method,
        path: operation.path,
        access: operation.scope === undefined ? 'public' : { scope: operation.scope },
        // Unknown ids and empty bodies: an allowed caller is refused for the content, never served.
        probe: {
          path: operation.path.replace(/\{[^}]+\}/g, 'no-such-id'),
          json: operation.method === 'GET' || operation.method === 'DELETE' ? undefined : {},
        },
      };
      // Revoking every token is all this route does, so each probe gets a token of its own.
      const revokesAll = operation.method === 'DELETE' && operation.path === '/gateway/v1/tokens';
      const verdicts: Record<string, Verdict> = {};
      for (const scope of requestableScopes) {
        const token = revokesAll ? await gateway.bearer([scope]) : tokenFor.get(scope);
        verdicts[scope] = verdict((await call(route, '', route.probe.path, token ?? null)).status);
      }
      if (revokesAll) await issueTokens();
      const name = routeName(operation);
      seen[name] = verdicts;
      expected[name] = expectedVerdicts(route);
    }
    expect(seen).toEqual(expected);
  });
});

describe('the route catalog these checks walk', () => {
  it('holds every spec operation the OpenAPI document lists, with the scope it documents', async () => {
    const documented = (await documentedOperations())
      .filter((operation) => !isOurs(operation.path))
      .map((operation) => ({ route: routeName(operation), scope: operation.scope }));
    const catalog = specRoutes.map((route) => ({ route: routeName(route), scope: requiredScope(route) }));
    const byRoute = (a: { route: string }, b: { route: string }) => a.route.localeCompare(b.route);
    expect(documented.sort(byRoute)).toEqual(catalog.sort(byRoute));
  });
});
