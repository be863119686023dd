import { randomBytes } from 'node:crypto';
import type { Document } from '../store/documentStore.js';
import type { RoutingRule } from './routingRules.js';

/** The routing rules in their order, kept in the `routing` document. */
export interface RoutingDocumentData {
  rules?: RoutingRule[];
}

export interface RoutingBook {
  list(): RoutingRule[];
  /** Replaces every rule, in the order given; a rule without an id gets one. */
  replace(rules: ReadonlyArray<Omit<RoutingRule, 'id'> & { id?: string }>): Promise<RoutingRule[]>;
  onChange(listener: () => void): () => void;
}

export function openRoutingBook(
  document: Pick<Document<RoutingDocumentData>, 'data' | 'update'>,
): RoutingBook {
  const listeners = new Set<() => void>();
  return {
    list: () => document.data.rules ?? [],
    async replace(rules) {
      const stored = rules.map((rule) => ({ ...rule, id: rule.id ?? randomBytes(6).toString('base64url') }));
      await document.update((data) => {
        data.rules = stored;
      });
      for (const listener of listeners) listener();
      return stored;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
