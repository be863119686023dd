import { randomUUID } from 'node:crypto';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { KeyedCollection } from '../../store/keyedCollection.js';
import type { RuleInput } from '../../validation/deskSchemas.js';

export interface AutoReplyRule extends RuleInput {
  id: string;
  /** Evaluation order, ascending. */
  position: number;
}

/** The auto-reply rules, kept in the database's small collections, in evaluation order. */
export class RuleBook {
  constructor(
    private readonly collection: KeyedCollection<AutoReplyRule>,
    private readonly newId: () => string = randomUUID,
  ) {}

  list(): AutoReplyRule[] {
    return [...this.collection.values()].sort((left, right) => left.position - right.position);
  }

  get(id: string): AutoReplyRule {
    const rule = this.collection.get(id);
    if (!rule) throw new GatewayError(ErrorCode.NotFound, `rule ${id} not found`, { field: 'id' });
    return rule;
  }

  /** A new rule goes last. */
  async create(input: RuleInput): Promise<AutoReplyRule> {
    const last = this.list().at(-1);
    const rule: AutoReplyRule = { ...input, id: this.newId(), position: (last?.position ?? 0) + 1 };
    await this.collection.put(rule);
    return rule;
  }

  async replace(id: string, input: RuleInput): Promise<AutoReplyRule> {
    const rule: AutoReplyRule = { ...input, id, position: this.get(id).position };
    await this.collection.put(rule);
    return rule;
  }

  async remove(id: string): Promise<void> {
    this.get(id);
    await this.collection.delete(id);
  }

  /** `ids` must name every rule once; they take that order. */
  async reorder(ids: readonly string[]): Promise<AutoReplyRule[]> {
    const rules = this.list();
    const known = new Set(rules.map((rule) => rule.id));
    if (ids.length !== known.size || new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) {
      throw new GatewayError(ErrorCode.ValidationFailed, 'ids: must list every rule exactly once', {
        field: 'ids',
      });
    }
    const reordered = ids.map((id, index) => ({ ...this.get(id), position: index + 1 }));
    await Promise.all(reordered.map((rule) => this.collection.put(rule)));
    return reordered;
  }
}
