import { z } from 'zod';
import { toIsoWithOffset } from '../../../clock/isoTime.js';
import {
  type AppView,
  appAddSchema,
  appChangeSchema,
  appViewSchema,
} from '../../../contract/schemas/accountSchemas.js';
import {
  type AppDirectory,
  type AppRecord,
  appPrincipalPrefix,
} from '../../../services/auth/appDirectory.js';
import type { AppQuotas } from '../../../services/auth/appQuotas.js';
import type { SmppLogins } from '../../../services/auth/smppLogins.js';
import type { TokenService } from '../../../services/auth/tokenService.js';
import type { WebhookRegistry } from '../../../services/webhooks/webhookRegistry.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

/**
 * The apps with logins of their own (docs/accounts-plans-routing.md): an owner adds one with a
 * name (its Basic user name), a password and a quota; a new password or a removal ends the
 * tokens the app asked for.
 */
export interface AppRouteDependencies {
  apps: AppDirectory;
  quotas: Pick<AppQuotas, 'usage'>;
  smppLogins: Pick<SmppLogins, 'systemIdOf'>;
  tokens: Pick<TokenService, 'revokeUser'>;
  webhooks: Pick<WebhookRegistry, 'removeApp'>;
}

const tag = 'Accounts';

export function registerAppRoutes(api: ApiBuilder, deps: AppRouteDependencies): void {
  const { apps, tokens } = deps;
  const appView = (app: AppRecord): AppView => {
    const smppSystemId = deps.smppLogins.systemIdOf(`${appPrincipalPrefix}${app.id}`);
    const { quota, ...rest } = app;
    const usage = deps.quotas
      .usage(app.id)
      .map((use) => ({ ...use, resetsAt: toIsoWithOffset(use.resetsAt) }));
    return {
      ...rest,
      ...(quota ? { quota: { ...quota, usage } } : {}),
      createdAt: toIsoWithOffset(app.createdAt),
      ...(smppSystemId === undefined ? {} : { smppSystemId }),
    };
  };

  api.route({
    method: 'get',
    path: '/gateway/v1/apps',
    summary: 'The apps with logins of their own, by name (the default app is the owner login)',
    tag,
    access: { scope: 'apps:manage' },
    responses: {
      200: { description: 'every app', schema: z.array(appViewSchema) },
      ...errorResponses(...authErrors),
    },
    handle: async () => ({ status: 200, body: apps.list().map(appView) }),
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/apps',
    summary: 'Add an app with its own Basic login and, optionally, a quota',
    tag,
    access: { scope: 'apps:manage' },
    body: appAddSchema,
    responses: {
      201: { description: 'the app added', schema: appViewSchema },
      ...errorResponses(400, 409, ...authErrors),
    },
    handle: async ({ body, principal }) => {
      if (!principal) throw new Error('a scoped route without a principal');
      return { status: 201, body: appView(await apps.add(body, principal.user)) };
    },
  });

  api.route({
    method: 'patch',
    path: '/gateway/v1/apps/:id',
    summary: "Change an app's password (its tokens end) or quota (null: none)",
    tag,
    access: { scope: 'apps:manage' },
    body: appChangeSchema,
    responses: {
      200: { description: 'the app as changed', schema: appViewSchema },
      ...errorResponses(400, 404, ...authErrors),
    },
    handle: async ({ body, params }) => {
      const id = params.id ?? '';
      const app = await apps.update(id, body);
      if (body.password !== undefined) await tokens.revokeUser(`${appPrincipalPrefix}${id}`);
      return { status: 200, body: appView(app) };
    },
  });

  api.route({
    method: 'delete',
    path: '/gateway/v1/apps/:id',
    summary: 'Remove an app; its login, tokens and webhooks end (its messages stay in the history)',
    tag,
    access: { scope: 'apps:manage' },
    responses: { 204: { description: 'removed' }, ...errorResponses(404, ...authErrors) },
    handle: async ({ params }) => {
      const id = params.id ?? '';
      await apps.remove(id);
      await tokens.revokeUser(`${appPrincipalPrefix}${id}`);
      await deps.webhooks.removeApp(id);
      return { status: 204 };
    },
  });
}
