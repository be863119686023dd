import type { z } from 'zod';
import { bridgeStatusSchema } from '../../validation/bridgeSchemas.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

const tag = 'E-mail and SMPP (extension)';

/** Our extension (docs/email-and-smpp.md): the state of the SMTP listener and the SMPP server. */
export function registerBridgeRoutes(
  api: ApiBuilder,
  deps: { status: () => z.output<typeof bridgeStatusSchema> },
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
}
