import { randomBytes } from 'node:crypto';
import type { RoutingRule, RuleMatch } from '../../contract/domain/routingRules.js';
import { type SimTargetForm, simTargetForm, toSimTarget } from '../../contract/domain/simTarget.js';
import type { Document } from '../../store/documentStore.js';

/** A rule as the `routing` document keeps it: a whole modem as its id, a slot as an object. */
export interface StoredRoutingRule extends RuleMatch {
  id: string;
  deviceIds: SimTargetForm[];
  fallbackDeviceIds: SimTargetForm[];
}

/** The routing rules in their order, kept in the `routing` document. */
export interface RoutingDocumentData {
  rules?: StoredRoutingRule[];
}

export interface RoutingBook {
  list(): RoutingRule[];
  /** Replaces every rule, in the order given; a rule without an id gets one. */
  replace(rules: ReadonlyArray<Omit<RoutingRule, 'id'> & { id?: string }>): Promise<RoutingRule[]>;
  onChange(listener: () => void): () => void;
}

function readRule(stored: StoredRoutingRule): RoutingRule {
  return {
    ...stored,
    deviceIds: stored.deviceIds.map(toSimTarget),
    fallbackDeviceIds: stored.fallbackDeviceIds.map(toSimTarget),
  };
}

function writeRule(rule: RoutingRule): StoredRoutingRule {
  return {
    ...rule,
    deviceIds: rule.deviceIds.map(simTargetForm),
    fallbackDeviceIds: rule.fallbackDeviceIds.map(simTargetForm),
  };
}

export function openRoutingBook(
  document: Pick<Document<RoutingDocumentData>, 'data' | 'update'>,
): RoutingBook {
  const listeners = new Set<() => void>();
  // The scheduler's hook reads the rules for every message a free modem looks at: read once.
  let rules = (document.data.rules ?? []).map(readRule);
  return {
    list: () => rules,
    async replace(next) {
      const stored = next.map((rule) => ({ ...rule, id: rule.id ?? randomBytes(6).toString('base64url') }));
      await document.update((data) => {
        data.rules = stored.map(writeRule);
      });
      rules = stored;
      for (const listener of listeners) listener();
      return stored;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
