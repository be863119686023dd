import type { CountryCode } from 'libphonenumber-js';
import { z } from 'zod';
import { decideRoute, type RoutingRule, type RuleMatch } from '../../../contract/domain/routingRules.js';
import { simTargetForm, toSimTarget } from '../../../contract/domain/simTarget.js';
import {
  operatorListQuerySchema,
  operatorListSchema,
  routeDecisionSchema,
  routeTryQuerySchema,
  routingRulesSchema,
  routingRuleViewSchema,
} from '../../../contract/schemas/routingSchemas.js';
import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import type { OperatorData } from '../../../services/routing/operatorData.js';
import type { RoutingBook } from '../../../services/routing/routingBook.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

/**
 * The routing rules, "Try" (where a number would go now, and why) and the operators the data
 * knows in a country, for operator rules.
 */
export interface RoutingRouteDependencies {
  book: RoutingBook;
  operators: OperatorData;
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
    summary: 'Replace the routing rules; the first rule that matches a number (prefix or operator) wins',
    tag,
    access: { scope: 'settings:write' },
    body: routingRulesSchema,
    responses: {
      200: {
        description: 'the rules as stored',
        schema: z.object({ rules: z.array(routingRuleViewSchema) }),
      },
      ...errorResponses(400, 503, ...authErrors),
    },
    handle: async ({ body }) => {
      body.rules.forEach((rule, index) => {
        checkOperatorKnown(deps.operators, rule, index);
      });
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
      // Looked up whatever the rules: "Try" shows the number's operator.
      const operator = deps.operators.operatorOf(query.phoneNumber);
      const decision = decideRoute(deps.book.list(), query.phoneNumber, deps.online(), operator);
      const deviceIds = decision.deviceIds?.map(simTargetForm);
      return { status: 200, body: { ...decision, ...(deviceIds ? { deviceIds } : {}), operator } };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/routing/operators',
    summary: "The operators the data knows for a country, as an operator rule's `operator` names them",
    tag,
    access: { scope: 'settings:read' },
    query: operatorListQuerySchema,
    responses: {
      200: { description: 'the operators, sorted', schema: operatorListSchema },
      ...errorResponses(400, 503, ...authErrors),
    },
    handle: async ({ query }) => ({
      status: 200,
      body: { country: query.country, operators: deps.operators.operatorsIn(query.country as CountryCode) },
    }),
  });
}

/** An operator rule names an operator the data has for its country: else it could never match. */
function checkOperatorKnown(operators: OperatorData, rule: RuleMatch, index: number): void {
  if (rule.operator === undefined || rule.country === undefined) return;
  if (operators.operatorsIn(rule.country as CountryCode).includes(rule.operator)) return;
  throw new GatewayError(
    ErrorCode.ValidationFailed,
    `the operator data has no "${rule.operator}" for ${rule.country} (GET /gateway/v1/routing/operators?country=${rule.country} lists those it has)`,
    { field: `rules[${index}].operator` },
  );
}
