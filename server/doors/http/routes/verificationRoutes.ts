import {
  verificationCheckSchema,
  verificationCheckViewSchema,
  verificationRequestSchema,
  verificationViewSchema,
} from '../../../contract/schemas/verificationSchemas.js';
import type { VerificationService } from '../../../services/verify/verificationService.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';
import { callerOfRequest } from '../routeCaller.js';

/** Our extension (docs/verification.md): send a verification code by SMS, then check it. */
export function registerVerificationRoutes(
  api: ApiBuilder,
  deps: { verifications: VerificationService },
): void {
  api.route({
    method: 'post',
    path: '/gateway/v1/verifications',
    openToApps: true,
    summary: 'Send a verification code by SMS (counted on the app quota and the SIM plan)',
    tag: 'Verification',
    access: { scope: 'verify:send' },
    body: verificationRequestSchema,
    responses: {
      201: { description: 'Sent: the code is in the queue', schema: verificationViewSchema },
      ...errorResponses(400, 503, ...authErrors),
      429: {
        description:
          'a resend too soon, too many codes to the number, or the app quota; Retry-After says when',
      },
    },
    async handle({ body, principal }) {
      return { status: 201, body: await deps.verifications.start(body, callerOfRequest(principal)) };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/verifications/:id',
    openToApps: true,
    summary: 'A verification: pending, approved, expired or max-attempts, and attempts left',
    tag: 'Verification',
    access: { scope: 'verify:check' },
    responses: {
      200: { description: 'The verification (never its code)', schema: verificationViewSchema },
      ...errorResponses(404, ...authErrors),
    },
    async handle({ params, principal }) {
      return { status: 200, body: deps.verifications.get(params.id ?? '', callerOfRequest(principal)) };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/verifications/:id/check',
    openToApps: true,
    summary: 'Check a code: approved once for the right code in time, else denied',
    tag: 'Verification',
    access: { scope: 'verify:check' },
    body: verificationCheckSchema,
    responses: {
      200: { description: 'approved or denied, with what is left', schema: verificationCheckViewSchema },
      ...errorResponses(400, 404, 409, ...authErrors),
      429: { description: 'too many wrong codes for this number in the last hour; Retry-After says when' },
    },
    async handle({ body, params, principal }) {
      const answer = await deps.verifications.check(params.id ?? '', body.code, callerOfRequest(principal));
      return { status: 200, body: answer };
    },
  });
}
