import type { Scope } from '../../../contract/domain/scopes.js';
import { smppLoginIssuedSchema, smppLoginRequestSchema } from '../../../contract/schemas/accountSchemas.js';
import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import type { AppDirectory } from '../../../services/auth/appDirectory.js';
import { appPrincipalPrefix } from '../../../services/auth/appDirectory.js';
import type { SmppLogins } from '../../../services/auth/smppLogins.js';
import type { StaffDirectory, StaffIdentity } from '../../../services/auth/staffDirectory.js';
import type { ApiBuilder, RouteInput } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

/**
 * SMPP logins that fit a bind (auth/smppLogins.ts, docs/email-and-smpp.md): an owner makes,
 * resets or removes a person's or an app's; anyone who may send, their own. Each reset makes a
 * new password, answered this once.
 */
export interface SmppLoginRouteDependencies {
  smppLogins: SmppLogins;
  staff: Pick<StaffDirectory, 'identity'>;
  apps: Pick<AppDirectory, 'identity'>;
}

const tag = 'Accounts';

/** Whose login a route's path names. */
interface Holders {
  path: string;
  scope: Scope;
  whose: string;
  holder: (context: Pick<RouteInput<undefined, undefined>, 'params' | 'principal'>) => StaffIdentity;
}

export function registerSmppLoginRoutes(api: ApiBuilder, deps: SmppLoginRouteDependencies): void {
  const { smppLogins } = deps;
  const known = (identity: StaffIdentity | undefined, what: string): StaffIdentity => {
    if (!identity) throw new GatewayError(ErrorCode.NotFound, `no ${what} with that id`, { field: 'id' });
    return identity;
  };
  const holders: Holders[] = [
    {
      path: '/gateway/v1/users/:id/smpp-login',
      scope: 'users:manage',
      whose: "a person's",
      holder: ({ params }) => known(deps.staff.identity(params.id ?? ''), 'person'),
    },
    {
      path: '/gateway/v1/apps/:id/smpp-login',
      scope: 'apps:manage',
      whose: "an app's",
      holder: ({ params }) => known(deps.apps.identity(`${appPrincipalPrefix}${params.id ?? ''}`), 'app'),
    },
    {
      path: '/gateway/v1/me/smpp-login',
      scope: 'messages:send',
      whose: 'your own',
      holder: ({ principal }) => {
        if (!principal) throw new Error('a scoped route without a principal');
        return principal.user;
      },
    },
  ];

  for (const { path, scope, whose, holder } of holders) {
    api.route({
      method: 'put',
      path,
      summary: `Make or reset ${whose} SMPP login (15-character system_id, new 8-character password)`,
      tag,
      access: { scope },
      body: smppLoginRequestSchema,
      responses: {
        200: { description: 'the login, with its password shown this once', schema: smppLoginIssuedSchema },
        ...errorResponses(400, 404, 409, ...authErrors),
      },
      handle: async (context) => {
        const issued = await smppLogins.issue(holder(context), context.body.systemId);
        return { status: 200, body: issued };
      },
    });

    api.route({
      method: 'delete',
      path,
      summary: `Remove ${whose} SMPP login (sessions bound with it go on until they unbind)`,
      tag,
      access: { scope },
      responses: { 204: { description: 'removed' }, ...errorResponses(404, ...authErrors) },
      handle: async (context) => {
        if (!(await smppLogins.remove(holder(context).id))) {
          throw new GatewayError(ErrorCode.NotFound, 'there is no SMPP login to remove', { field: 'id' });
        }
        return { status: 204 };
      },
    });
  }
}
