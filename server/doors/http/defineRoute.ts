import type Koa from 'koa';
import type { z } from 'zod';
import { omitNulls } from '../../contract/domain/apiJson.js';
import type { Scope } from '../../contract/domain/scopes.js';
import { parseOrThrow } from '../../contract/schemas/requestParsing.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { AccessControl, CallerRequest, Principal } from '../../services/auth/accessControl.js';
import { buildOpenApiDocument, type OpenApiInfo } from './openApiDocument.js';
import type { SegmentedRouter } from './segmentedRouter.js';

/**
 * The one way to declare an API route: the same zod schemas validate the request, document it
 * in OpenAPI, and the access rule is checked before anything else runs.
 */
export type RouteAccess =
  | {
      scope: Scope;
      /**
       * Any person's password (Basic) opens it too, whatever their role allows: signing in to
       * the window is asking for a token with one's own password (POST /auth/token).
       */
      passwordSuffices?: true;
    }
  /** Any valid access credentials, whatever they may do (GET /gateway/v1/me). */
  | 'authenticated'
  | 'refresh-token'
  | 'public';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface RouteInput<B extends z.ZodType | undefined, Q extends z.ZodType | undefined> {
  body: Infer<B>;
  query: Infer<Q>;
  params: Record<string, string>;
  ctx: Koa.Context;
  /** Absent only on public routes. */
  principal?: Principal;
}

/**
 * A body already written as JSON in the API's form (no null fields): sent as it is, without
 * being parsed and written again (a page of stored message views, domain/messageView.ts).
 */
export class JsonText {
  constructor(readonly text: string) {}
}

export interface RouteResult {
  status: number;
  /** Serialised as JSON with null fields omitted (a `JsonText` is sent as it is); absent: no body. */
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * The handler wrote the answer on `ctx.res` itself (the MCP transport): nothing more is set,
   * and the change, if any, is the handler's to record.
   */
  streamed?: true;
}

export interface RouteResponseSpec {
  description: string;
  schema?: z.ZodType;
}

export interface RouteSpec<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
> {
  method: HttpMethod;
  /** koa-router path relative to the API base, e.g. '/messages/:id'. */
  path: string;
  /** Other paths serving the same route, e.g. ['/message/:id'] (upstream singular forms). */
  aliases?: string[];
  /** Ours outside `/gateway/v1/` (GET /metrics, where scrapers look): at the root only. */
  rootOnly?: true;
  /** An extension an app's credentials may use: it acts on the app's own things only. */
  openToApps?: true;
  summary: string;
  tag: string;
  access: RouteAccess;
  body?: B;
  query?: Q;
  responses: Record<number, RouteResponseSpec>;
  handle(input: RouteInput<B, Q>): Promise<RouteResult>;
}

/** Paths of our extensions to the upstream API. */
export const extensionPrefix = '/gateway/v1/';

/** A route spec with its schema types erased, as the builder stores it. */
export type AnyRouteSpec = RouteSpec<z.ZodType | undefined, z.ZodType | undefined>;

export interface ApiBuilder {
  route<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
    spec: RouteSpec<B, Q>,
  ): void;
  openApi(): object;
}

/** A change a caller made through the API: what the audit trail records (http/auditRecorder.ts). */
export interface RouteChange {
  principal: Principal;
  /** Method and route, e.g. `POST /messages`. */
  action: string;
  summary: string;
  /** The id the route changed: its `:id` (or `:jti`), else the `id` of what it answered. */
  subject: string;
  /** The top-level field names of the body it sent. */
  fields: string[];
}

export interface RouteTableOptions {
  accessControl: AccessControl;
  /** Told of every successful request to a route that changes something (`makesChanges`). */
  onChange?: (change: RouteChange) => void;
  info: OpenApiInfo;
  /** Bases every route is served under ('' is the root), e.g. ['', '/3rdparty/v1']. */
  bases: readonly string[];
}

/** Collects route specs; mounts them on a router and describes them as OpenAPI. */
export class RouteTable implements ApiBuilder {
  private readonly specs: AnyRouteSpec[] = [];

  constructor(private readonly options: RouteTableOptions) {}

  route<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
    spec: RouteSpec<B, Q>,
  ): void {
    const erased = spec as unknown as AnyRouteSpec;
    for (const path of [erased.path, ...(erased.aliases ?? [])]) {
      const clash = this.specs.find(
        (known) => known.method === erased.method && [known.path, ...(known.aliases ?? [])].includes(path),
      );
      if (clash) throw new Error(`route ${erased.method.toUpperCase()} ${path} is declared twice`);
    }
    this.specs.push(erased);
  }

  openApi(): object {
    return buildOpenApiDocument(this.specs, this.options.info);
  }

  /**
   * Registers every route at every base, under its path and each alias. Our own extensions
   * (`/gateway/v1/…` and `rootOnly` ones, docs/decisions.md#mounts) are served at the root only:
   * they are not the spec's routes.
   */
  mount(router: Pick<SegmentedRouter, 'register'>): void {
    for (const spec of this.specs) {
      const handler = routeMiddleware(spec, this.options.accessControl, this.options.onChange);
      const bases = spec.path.startsWith(extensionPrefix) || spec.rootOnly ? [''] : this.options.bases;
      for (const base of bases) {
        for (const path of [spec.path, ...(spec.aliases ?? [])]) {
          router.register(`${base}${path}`, [spec.method.toUpperCase()], handler);
        }
      }
    }
  }
}

function routeMiddleware(
  spec: AnyRouteSpec,
  accessControl: AccessControl,
  onChange: RouteTableOptions['onChange'],
): Koa.Middleware {
  return async (ctx) => {
    const principal = await checkAccess(spec, accessControl, ctx);
    // Answers behind credentials (tokens above all) must not sit in a browser or proxy cache.
    if (spec.access !== 'public') ctx.set('Cache-Control', 'no-store');
    const body = spec.body ? parseOrThrow(spec.body, requestBody(ctx), 'body') : undefined;
    const query = spec.query ? parseOrThrow(spec.query, ctx.query, 'query') : undefined;
    const params = (ctx as Koa.Context & { params?: Record<string, string> }).params ?? {};
    const result = await spec.handle({ body, query, params, ctx, principal });
    if (result.streamed) {
      ctx.respond = false;
      return;
    }
    if (result.body instanceof JsonText) {
      // The type first: Koa takes a string body for text/plain unless a type is set.
      ctx.type = 'application/json';
      ctx.body = result.body.text;
    } else if (result.body !== undefined) ctx.body = omitNulls(result.body);
    // No body means an empty one: Koa would otherwise answer with the status text ("Accepted").
    // Set before the status, because Koa turns a null body into 204 otherwise.
    else if (ctx.body === undefined || ctx.body === null) ctx.body = null;
    ctx.status = result.status;
    for (const [name, value] of Object.entries(result.headers ?? {})) ctx.set(name, value);
    if (onChange && principal && makesChanges(spec) && result.status < 400) {
      onChange({
        principal,
        action: `${spec.method.toUpperCase()} ${spec.path}`,
        summary: spec.summary,
        subject: params.id ?? params.jti ?? answeredId(result.body),
        fields: body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [],
      });
    }
  };
}

/**
 * Whether a route changes something: not a GET, and behind a scope that is not for reading
 * (a POST that looks names up, under `contacts:read`, changes nothing).
 */
function makesChanges(spec: AnyRouteSpec): boolean {
  return (
    spec.method !== 'get' &&
    typeof spec.access === 'object' &&
    !/:(read|list|export)$/.test(spec.access.scope)
  );
}

function answeredId(body: unknown): string {
  if (body === null || typeof body !== 'object' || body instanceof JsonText) return '';
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' ? id : '';
}

/**
 * An app's credentials (auth/appDirectory.ts) open the spec's routes and the extensions marked
 * `openToApps` (`me`, verifications), no others: those read or change the whole gateway (its
 * status, the desk, scheduled messages of anyone), which is not one app's to see.
 */
async function checkAccess(
  spec: Pick<AnyRouteSpec, 'access' | 'path' | 'openToApps'>,
  accessControl: AccessControl,
  ctx: Koa.Context,
): Promise<Principal | undefined> {
  const { access } = spec;
  if (access === 'public') return undefined;
  const request = callerOf(ctx);
  if (access === 'refresh-token') return accessControl.authenticate(request, 'refresh');
  const principal = await accessControl.authenticate(request, 'access');
  if (principal.user.role === 'app' && spec.path.startsWith(extensionPrefix) && !spec.openToApps) {
    throw new GatewayError(ErrorCode.Forbidden, "an app's credentials open the spec's routes only");
  }
  if (access === 'authenticated') return principal;
  if (access.passwordSuffices && principal.kind === 'basic') return principal;
  accessControl.authorize(principal, access.scope);
  return principal;
}

/** What access control needs to know of a request's sender. */
export function callerOf(ctx: Koa.Context): CallerRequest {
  return {
    authorization: ctx.get('authorization') || undefined,
    ip: ctx.ip,
  };
}

/**
 * The media types read as JSON: the body parser (app.ts) parses exactly these, and a route with
 * a body accepts exactly these. Keeping one list is what stops a type from being accepted but
 * left unparsed (`application/merge-patch+json` once reset every setting as an empty PUT).
 */
export const jsonBodyTypes = ['application/json', 'application/*+json'];

/**
 * The parsed JSON body. A body sent with another content type is refused (415) rather than
 * read as empty, so a client posting form data learns why nothing it sent was seen; and a body
 * the parser did not read (no `rawBody`) is never taken for an empty one.
 */
export function requestBody(ctx: Koa.Context): unknown {
  const request = ctx.request as Koa.Request & { body?: unknown; rawBody?: string };
  const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
  if (ctx.is(jsonBodyTypes) === false || (hasBody && request.rawBody === undefined)) {
    throw new GatewayError(
      ErrorCode.UnsupportedMediaType,
      `body: content type ${ctx.get('content-type') || '(none)'} is not supported; send application/json`,
      { field: 'body' },
    );
  }
  return request.body ?? {};
}
