import { z } from 'zod';
import { toIsoWithOffset } from '../../../../clock/isoTime.js';
import {
  ruleInputSchema,
  ruleOrderSchema,
  ruleTestSchema,
  ruleVerdictViewSchema,
  ruleViewSchema,
} from '../../../../contract/schemas/deskSchemas.js';
import { ErrorCode, isGatewayError } from '../../../../errors/gatewayError.js';
import type { RuleActions } from '../../../../services/desk/rules/ruleActions.js';
import type { AutoReplyRule, RuleBook } from '../../../../services/desk/rules/ruleBook.js';
import { judgeRules, type RuleVerdict } from '../../../../services/desk/rules/ruleEngine.js';
import type { PatternMatching } from '../../../../services/patterns/patternMatcher.js';
import type { ApiBuilder } from '../../defineRoute.js';
import { authErrors, errorResponses } from '../../responses.js';

const tag = 'Auto-reply rules (extension)';

/**
 * Our extension (docs/desk.md "Auto-reply rules"): rules evaluated in order on every incoming SMS,
 * and a tester that says what each rule would make of a sample text, sending nothing.
 */
export function registerRuleRoutes(
  api: ApiBuilder,
  deps: { rules: RuleBook; actions: RuleActions; patterns: PatternMatching; now: () => number },
): void {
  const { rules } = deps;
  api.route({
    method: 'get',
    path: '/gateway/v1/rules',
    summary: 'List the auto-reply rules in evaluation order',
    tag,
    access: { scope: 'rules:read' },
    responses: {
      200: { description: 'The rules', schema: z.array(ruleViewSchema) },
      ...errorResponses(...authErrors),
    },
    async handle() {
      return { status: 200, body: rules.list().map(ruleView) };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/rules',
    summary: 'Add a rule (evaluated last)',
    tag,
    access: { scope: 'rules:write' },
    body: ruleInputSchema,
    responses: {
      201: { description: 'The rule', schema: ruleViewSchema },
      ...errorResponses(400, 415, ...authErrors),
    },
    async handle({ body }) {
      deps.actions.checkReferences(body.action);
      return { status: 201, body: ruleView(await rules.create(body)) };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/rules/test',
    summary: 'What each rule would do with a sample text (nothing is sent)',
    tag,
    access: { scope: 'rules:read' },
    body: ruleTestSchema,
    responses: {
      200: { description: 'Every rule’s verdict, in order', schema: z.array(ruleVerdictViewSchema) },
      ...errorResponses(400, 415, 503, ...authErrors),
    },
    async handle({ body }) {
      // A sample text disables nothing: this route is `rules:read`.
      const list = rules.list();
      const verdicts = await judgeRules(
        list,
        { text: body.text, sender: body.sender, deviceId: body.deviceId ?? '', at: body.at ?? deps.now() },
        deps.patterns,
      );
      const incoming = { sender: body.sender, content: body.text };
      return {
        status: 200,
        body: verdicts.map((verdict, index) => {
          const rule = list[index];
          return verdict.applies && rule ? withOutgoing(verdict, deps.actions, rule, incoming) : verdict;
        }),
      };
    },
  });

  api.route({
    method: 'put',
    path: '/gateway/v1/rules/order',
    summary: 'Set the evaluation order (every rule id once)',
    tag,
    access: { scope: 'rules:write' },
    body: ruleOrderSchema,
    responses: {
      200: { description: 'The rules', schema: z.array(ruleViewSchema) },
      ...errorResponses(400, 415, ...authErrors),
    },
    async handle({ body }) {
      return { status: 200, body: (await rules.reorder(body.ids)).map(ruleView) };
    },
  });

  api.route({
    method: 'put',
    path: '/gateway/v1/rules/:id',
    summary: 'Replace a rule (its place in the order stays)',
    tag,
    access: { scope: 'rules:write' },
    body: ruleInputSchema,
    responses: {
      200: { description: 'The rule', schema: ruleViewSchema },
      ...errorResponses(400, 404, 415, ...authErrors),
    },
    async handle({ params, body }) {
      deps.actions.checkReferences(body.action);
      return { status: 200, body: ruleView(await rules.replace(params.id ?? '', body)) };
    },
  });

  api.route({
    method: 'delete',
    path: '/gateway/v1/rules/:id',
    summary: 'Delete a rule',
    tag,
    access: { scope: 'rules:write' },
    responses: { 204: { description: 'Deleted' }, ...errorResponses(404, ...authErrors) },
    async handle({ params }) {
      await rules.remove(params.id ?? '');
      return { status: 204 };
    },
  });
}

function ruleView({ patternDisabled, lastSkipped, ...rule }: AutoReplyRule): z.output<typeof ruleViewSchema> {
  return {
    ...rule,
    ...(patternDisabled
      ? { patternDisabled: { ...patternDisabled, at: toIsoWithOffset(patternDisabled.at) } }
      : {}),
    ...(lastSkipped ? { lastSkipped: { ...lastSkipped, at: toIsoWithOffset(lastSkipped.at) } } : {}),
  };
}

/** A verdict with the exact SMS its rule would send, or why it could not. */
function withOutgoing(
  verdict: RuleVerdict,
  actions: RuleActions,
  rule: AutoReplyRule,
  incoming: { sender: string; content: string },
): RuleVerdict & { wouldSend?: { to: string; text: string }; cannotSend?: string } {
  try {
    const outgoing = actions.outgoing(rule.action, incoming);
    return outgoing ? { ...verdict, wouldSend: outgoing } : verdict;
  } catch (error) {
    if (!isGatewayError(error, ErrorCode.ValidationFailed)) throw error;
    return { ...verdict, cannotSend: error.message };
  }
}
