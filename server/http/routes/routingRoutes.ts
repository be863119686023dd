import { z } from 'zod';
import { simTargetForm, toSimTarget } from '../../domain/simTarget.js';
import type { RoutingBook } from '../../routing/routingBook.js';
import { decideRoute, type RoutingRule } from '../../routing/routingRules.js';
import {
  routeDecisionSchema,
  routeTryQuerySchema,
  routingRulesSchema,
  routingRuleViewSchema,
} from '../../schemas/routingSchemas.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

/** The routing rules, and "Try": where a number would go now, and why. */
export interface RoutingRouteDependencies {
  book: RoutingBook;
  /** The modems online now, by device id. */
  online: () => ReadonlySet<string>;
}

const tag = 'Routing';

/** A rule as the API shows it: a whole modem as its id, as clients that know only modems read it. */
function ruleView(rule: RoutingRule) {
  return {
    ...rule,
    deviceIds: rule.deviceIds.map(simTargetForm),
    fallbackDeviceIds: rule.fallbackDeviceIds.map(simTargetForm),
  };
}

export function registerRoutingRoutes(api: ApiBuilder, deps: RoutingRouteDependencies): void {
  api.route({
    method: 'get',
    path: '/gateway/v1/routing',
    summary: 'The routing rules, in order',
    tag,
    access: { scope: 'settings:read' },
    responses: {
      200: { description: 'the rules', schema: z.object({ rules: z.array(routingRuleViewSchema) }) },
      ...errorResponses(...authErrors),
    },
    handle: async () => ({ status: 200, body: { rules: deps.book.list().map(ruleView) } }),
  });

  api.route({
    method: 'put',
    path: '/gateway/v1/routing',
    summary: 'Replace the routing rules; the first rule whose prefix a number starts with wins',
    tag,
    access: { scope: 'settings:write' },
    body: routingRulesSchema,
    responses: {
      200: {
        description: 'the rules as stored',
        schema: z.object({ rules: z.array(routingRuleViewSchema) }),
      },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ body }) => {
      const rules = body.rules.map((rule) => ({
        ...rule,
        deviceIds: rule.deviceIds.map(toSimTarget),
        fallbackDeviceIds: rule.fallbackDeviceIds.map(toSimTarget),
      }));
      return { status: 200, body: { rules: (await deps.book.replace(rules)).map(ruleView) } };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/routing/try',
    summary: 'Where a message to this number would go now, and why',
    tag,
    access: { scope: 'settings:read' },
    query: routeTryQuerySchema,
    responses: {
      200: { description: 'the decision', schema: routeDecisionSchema },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ query }) => {
      const decision = decideRoute(deps.book.list(), query.phoneNumber, deps.online());
      const deviceIds = decision.deviceIds?.map(simTargetForm);
      return { status: 200, body: { ...decision, ...(deviceIds ? { deviceIds } : {}) } };
    },
  });
}
