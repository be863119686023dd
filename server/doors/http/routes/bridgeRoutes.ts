import type { z } from 'zod';
import { bridgeStatusSchema, bridgeTestResultSchema } from '../../../contract/schemas/bridgeSchemas.js';
import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

const tag = 'E-mail and SMPP (extension)';

export const BridgeNames = ['smtp', 'smpp', 'email'] as const;
export type BridgeName = (typeof BridgeNames)[number];

/** Our extension (docs/email-and-smpp.md): the state of the SMTP listener and the SMPP server, and their tests. */
export function registerBridgeRoutes(
  api: ApiBuilder,
  deps: {
    status: () => z.output<typeof bridgeStatusSchema>;
    /** Resolves with what answered; throws with what went wrong. */
    test: (name: BridgeName) => Promise<string>;
  },
): void {
  api.route({
    method: 'get',
    path: '/gateway/v1/bridges',
    summary: 'Whether the SMTP listener and the SMPP server run, and where',
    tag,
    access: { scope: 'settings:read' },
    responses: {
      200: {
        description: 'Each listener: off, listening (host, port) or failed (the reason)',
        schema: bridgeStatusSchema,
      },
      ...errorResponses(...authErrors),
    },
    async handle() {
      return { status: 200, body: deps.status() };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/bridges/:name/test',
    summary:
      'Test one way in or out: the SMTP listener greets, the SMPP server answers enquire_link, the relay takes a mail',
    tag,
    access: { scope: 'settings:write' },
    responses: {
      200: { description: 'Whether it worked, and what answered or failed', schema: bridgeTestResultSchema },
      ...errorResponses(404, ...authErrors),
    },
    async handle({ params }) {
      const name = BridgeNames.find((known) => known === params.name);
      if (!name) {
        throw new GatewayError(ErrorCode.NotFound, `name: no bridge "${params.name}" (smtp, smpp or email)`, {
          field: 'name',
        });
      }
      try {
        return { status: 200, body: { ok: true, detail: await deps.test(name) } };
      } catch (error) {
        return {
          status: 200,
          body: { ok: false, detail: error instanceof Error ? error.message : String(error) },
        };
      }
    },
  });
}
