import { z } from 'zod';
import {
  type SimPlanView,
  simPlanSchema,
  simPlanViewSchema,
  simSlotSchema,
} from '../../../contract/schemas/planSchemas.js';
import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import type { PlanBook } from '../../../services/plans/planBook.js';
import type { SimPlan, SimRef } from '../../../services/plans/simPlan.js';
import type { SimPlanUsage } from '../../../services/plans/simPlanUsage.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

/** The SIM plans, each with its use against every cap (docs/accounts-plans-routing.md). */
export interface PlanRouteDependencies {
  plans: PlanBook;
  usage: Pick<SimPlanUsage, 'usage'>;
}

const tag = 'Routing';
const path = '/gateway/v1/plans/:deviceId/:sim';

function simOf(params: Record<string, string>): SimRef {
  const slot = simSlotSchema.safeParse(params.sim);
  if (!slot.success) {
    throw new GatewayError(ErrorCode.ValidationFailed, 'sim: must be a SIM slot from 1 to 3', {
      field: 'sim',
    });
  }
  return { deviceId: params.deviceId ?? '', sim: slot.data };
}

export function registerPlanRoutes(api: ApiBuilder, deps: PlanRouteDependencies): void {
  const view = (plan: SimPlan): SimPlanView => ({
    ...plan,
    usage: deps.usage.usage(plan).map((use) => ({
      cap: use.cap.name,
      period: use.cap.period,
      limit: use.cap.limit,
      used: use.used,
      resetsAt: new Date(use.resetsAt).toISOString(),
    })),
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/plans',
    summary: "The SIMs' plans, each cap with the SIM's use in its period",
    tag,
    access: { scope: 'settings:read' },
    responses: {
      200: { description: 'every plan', schema: z.object({ plans: z.array(simPlanViewSchema) }) },
      ...errorResponses(...authErrors),
    },
    handle: async () => ({ status: 200, body: { plans: deps.plans.list().map(view) } }),
  });

  api.route({
    method: 'put',
    path,
    summary: "Set a SIM's plan (modem id and SIM slot): its caps, their reset, and hold or spill",
    tag,
    access: { scope: 'settings:write' },
    body: simPlanSchema,
    responses: {
      200: { description: 'the plan as stored, with its use', schema: simPlanViewSchema },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ body, params }) => ({
      status: 200,
      body: view(await deps.plans.put(simOf(params), body)),
    }),
  });

  api.route({
    method: 'delete',
    path,
    summary: "Remove a SIM's plan: it sends without caps",
    tag,
    access: { scope: 'settings:write' },
    responses: { 204: { description: 'removed' }, ...errorResponses(400, 404, ...authErrors) },
    handle: async ({ params }) => {
      await deps.plans.remove(simOf(params));
      return { status: 204 };
    },
  });
}
