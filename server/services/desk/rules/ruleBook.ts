import { randomUUID } from 'node:crypto';
import type { PatternDisabled } from '../../../contract/domain/userPatterns.js';
import { MaxRegexRules, type RuleInput } from '../../../contract/schemas/deskSchemas.js';
import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import type { KeyedCollection } from '../../../store/keyedCollection.js';

export interface AutoReplyRule extends RuleInput {
  id: string;
  /** Evaluation order, ascending. */
  position: number;
  /** Its regular expression is not run (kept until `match` changes). */
  patternDisabled?: PatternDisabled;
  /** The last reply it could not send (kept until the rule is saved again). */
  lastSkipped?: SkippedReply;
}

/** A reply a sender could not receive: its text names placeholders nobody filled for them. */
export interface SkippedReply {
  phoneNumber: string;
  /** The placeholders without a value, as named in the text (`name`, not `{name}`). */
  missing: string[];
  at: number;
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
    this.checkRegexRules(input);
    const last = this.list().at(-1);
    const rule: AutoReplyRule = { ...input, id: this.newId(), position: (last?.position ?? 0) + 1 };
    await this.collection.put(rule);
    return rule;
  }

  /**
   * A disabled pattern stays so while the rule keeps it (the editor saves every field at once);
   * a skipped reply is forgotten, as the edit is how it is mended.
   */
  async replace(id: string, input: RuleInput): Promise<AutoReplyRule> {
    const { position, patternDisabled, match } = this.get(id);
    this.checkRegexRules(input, id);
    const keep = patternDisabled && sameMatch(match, input.match);
    const rule: AutoReplyRule = { ...input, id, position, ...(keep ? { patternDisabled } : {}) };
    await this.collection.put(rule);
    return rule;
  }

  /** Only while the rule still holds `match`: one edited meanwhile is not the one to blame. */
  async disablePattern(id: string, match: RuleInput['match'], disabled: PatternDisabled): Promise<void> {
    const rule = this.collection.get(id);
    if (!rule || !sameMatch(rule.match, match)) return;
    await this.collection.put({ ...rule, patternDisabled: disabled });
  }

  /** Only while the rule still holds `action`: an edited reply is not the one that failed. */
  async noteSkipped(id: string, action: RuleInput['action'], skipped: SkippedReply): Promise<void> {
    const rule = this.collection.get(id);
    if (!rule || JSON.stringify(rule.action) !== JSON.stringify(action)) return;
    await this.collection.put({ ...rule, lastSkipped: skipped });
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

  /** `input` may use a regular expression only while fewer than `MaxRegexRules` other rules do. */
  private checkRegexRules(input: RuleInput, replacing?: string): void {
    if (input.match.kind !== 'regex') return;
    const others = this.list().filter((rule) => rule.match.kind === 'regex' && rule.id !== replacing);
    if (others.length < MaxRegexRules) return;
    throw new GatewayError(
      ErrorCode.ValidationFailed,
      `match.kind: at most ${MaxRegexRules} rules may use a regular expression`,
      { field: 'match.kind' },
    );
  }
}

function sameMatch(left: RuleInput['match'], right: RuleInput['match']): boolean {
  return left.kind === right.kind && left.pattern === right.pattern;
}
