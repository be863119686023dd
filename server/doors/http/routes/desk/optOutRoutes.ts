import { z } from 'zod';
import { toIsoWithOffset } from '../../../../clock/isoTime.js';
import {
  optOutAddSchema,
  optOutListQuerySchema,
  optOutViewSchema,
} from '../../../../contract/schemas/deskSchemas.js';
import { ErrorCode, GatewayError } from '../../../../errors/gatewayError.js';
import type { OptOut, OptOutList } from '../../../../services/desk/optOut/optOutList.js';
import type { ApiBuilder } from '../../defineRoute.js';
import { authErrors, errorResponses } from '../../responses.js';

const tag = 'Opt-outs (extension)';

function optOutView(optOut: OptOut): z.output<typeof optOutViewSchema> {
  return { phoneNumber: optOut.number, addedAt: toIsoWithOffset(optOut.addedAt), source: optOut.source };
}

/**
 * Our extension (docs/desk.md "Opt-out"): the numbers that asked not to be texted. Sends to them end
 * Failed "opted out" unless a message says `ignoreOptOut: true`.
 */
export function registerOptOutRoutes(api: ApiBuilder, deps: { optOuts: OptOutList }): void {
  const { optOuts } = deps;
  api.route({
    method: 'get',
    path: '/gateway/v1/opt-outs',
    summary: 'List the opt-out list, newest first',
    tag,
    access: { scope: 'optouts:read' },
    query: optOutListQuerySchema,
    responses: {
      200: {
        description: 'A page of opted-out numbers; X-Total-Count has the total',
        schema: z.array(optOutViewSchema),
      },
      ...errorResponses(400, ...authErrors),
    },
    async handle({ query }) {
      const page = optOuts.list(query.limit, query.offset);
      return {
        status: 200,
        body: page.items.map(optOutView),
        headers: { 'X-Total-Count': String(page.total) },
      };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/opt-outs',
    summary: 'Put a number on the opt-out list (again: unchanged)',
    tag,
    access: { scope: 'optouts:write' },
    body: optOutAddSchema,
    responses: {
      201: { description: 'On the list', schema: optOutViewSchema },
      ...errorResponses(400, 415, ...authErrors),
    },
    async handle({ body }) {
      return { status: 201, body: optOutView(await optOuts.add(body.phoneNumber, 'manual')) };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/opt-outs/lookup',
    summary: 'Which of these numbers are on the opt-out list (what Compose warns of before sending)',
    tag,
    access: { scope: 'optouts:read' },
    body: z.object({ phoneNumbers: z.array(z.string().max(40)).max(1000) }),
    responses: {
      200: { description: 'The numbers of the request that are on the list', schema: z.array(z.string()) },
      ...errorResponses(400, 415, ...authErrors),
    },
    async handle({ body }) {
      return { status: 200, body: [...optOuts.exclude(body.phoneNumbers)] };
    },
  });

  api.route({
    method: 'delete',
    path: '/gateway/v1/opt-outs/:number',
    summary: 'Take a number off the opt-out list',
    tag,
    access: { scope: 'optouts:write' },
    responses: {
      204: { description: 'Removed' },
      ...errorResponses(404, ...authErrors),
    },
    async handle({ params }) {
      const number = params.number ?? '';
      if (!(await optOuts.remove(number, 'manual'))) {
        throw new GatewayError(ErrorCode.NotFound, `${number} is not on the opt-out list`, {
          field: 'number',
        });
      }
      return { status: 204 };
    },
  });
}
