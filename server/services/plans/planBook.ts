import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Document } from '../../store/documentStore.js';
import { type SimPlan, type SimPlanTerms, type SimRef, simKey } from './simPlan.js';

/** The SIM plans, kept in the `sim-plans` document. */
export interface PlanDocumentData {
  plans?: SimPlan[];
}

export interface PlanBook {
  list(): SimPlan[];
  get(sim: SimRef): SimPlan | undefined;
  /** Sets the SIM's plan, replacing the one it had. */
  put(sim: SimRef, terms: SimPlanTerms): Promise<SimPlan>;
  /** Throws NotFound when the SIM has no plan. */
  remove(sim: SimRef): Promise<void>;
  onChange(listener: () => void): () => void;
}

export function openPlanBook(document: Pick<Document<PlanDocumentData>, 'data' | 'update'>): PlanBook {
  const listeners = new Set<() => void>();
  const byKey = () => new Map((document.data.plans ?? []).map((plan) => [simKey(plan), plan]));
  let index = byKey();
  const changed = () => {
    index = byKey();
    for (const listener of listeners) listener();
  };
  return {
    list: () => document.data.plans ?? [],
    get: (sim) => index.get(simKey(sim)),
    async put(sim, terms) {
      const plan: SimPlan = { ...terms, deviceId: sim.deviceId, sim: sim.sim };
      await document.update((data) => {
        data.plans = [...(data.plans ?? []).filter((other) => simKey(other) !== simKey(sim)), plan];
      });
      changed();
      return plan;
    },
    async remove(sim) {
      if (!index.has(simKey(sim))) {
        throw new GatewayError(ErrorCode.NotFound, `SIM ${sim.sim} of modem ${sim.deviceId} has no plan`);
      }
      await document.update((data) => {
        data.plans = (data.plans ?? []).filter((other) => simKey(other) !== simKey(sim));
      });
      changed();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
