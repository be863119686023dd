import type { OpeningHours, RuleAction, RuleInput, RuleMatchKind } from '../api/types.js';

/** The rule editor's fields as typed (strings), and the rule they make. */
export interface RuleDraft {
  name: string;
  enabled: boolean;
  matchKind: RuleMatchKind;
  pattern: string;
  deviceId: string;
  outsideHours: boolean;
  timeZone: string;
  /** `key` only tells the editor's rows apart; it is not sent. */
  periods: { key: number; days: number[]; from: string; to: string }[];
  /** The schema's action kinds, with a reply from a template shown as a kind of its own. */
  actionKind: RuleAction['kind'] | 'template';
  replyText: string;
  templateId: string;
  forwardTo: string;
  groupId: string;
}

export const weekdayLabels = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

export function emptyDraft(timeZone: string): RuleDraft {
  return {
    name: '',
    enabled: true,
    matchKind: 'startsWith',
    pattern: '',
    deviceId: '',
    outsideHours: false,
    timeZone,
    periods: [{ key: 0, days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' }],
    actionKind: 'reply',
    replyText: '',
    templateId: '',
    forwardTo: '',
    groupId: '',
  };
}

export function draftOf(rule: RuleInput, timeZone: string): RuleDraft {
  const hours = rule.conditions.outsideOpeningHours;
  return {
    name: rule.name,
    enabled: rule.enabled,
    matchKind: rule.match.kind,
    pattern: rule.match.pattern,
    deviceId: rule.conditions.deviceId ?? '',
    outsideHours: hours !== undefined,
    timeZone: hours?.timeZone ?? timeZone,
    periods: hours?.periods.map((period, key) => ({ key, ...period })) ?? emptyDraft(timeZone).periods,
    actionKind:
      rule.action.kind === 'reply' && rule.action.templateId !== undefined ? 'template' : rule.action.kind,
    replyText: rule.action.kind === 'reply' ? (rule.action.text ?? '') : '',
    templateId: rule.action.kind === 'reply' ? (rule.action.templateId ?? '') : '',
    forwardTo: rule.action.kind === 'forward' ? rule.action.phoneNumber : '',
    groupId: rule.action.kind === 'addToGroup' ? rule.action.groupId : '',
  };
}

export function ruleOf(draft: RuleDraft): RuleInput {
  const hours: OpeningHours | undefined = draft.outsideHours
    ? { timeZone: draft.timeZone, periods: draft.periods.map(({ days, from, to }) => ({ days, from, to })) }
    : undefined;
  return {
    name: draft.name,
    enabled: draft.enabled,
    match: { kind: draft.matchKind, pattern: draft.matchKind === 'any' ? '' : draft.pattern },
    conditions: {
      ...(draft.deviceId ? { deviceId: draft.deviceId } : {}),
      ...(hours ? { outsideOpeningHours: hours } : {}),
    },
    action: actionOf(draft),
  };
}

function actionOf(draft: RuleDraft): RuleAction {
  switch (draft.actionKind) {
    case 'reply':
      return { kind: 'reply', text: draft.replyText };
    case 'template':
      return { kind: 'reply', templateId: draft.templateId };
    case 'forward':
      return { kind: 'forward', phoneNumber: draft.forwardTo };
    case 'addToGroup':
      return { kind: 'addToGroup', groupId: draft.groupId };
  }
}

function describeAction(
  action: RuleAction,
  names: { template(id: string): string; group(id: string): string },
): string {
  if ('text' in action) return `reply “${action.text}”`;
  if ('templateId' in action) return `reply with the template “${names.template(action.templateId)}”`;
  if (action.kind === 'forward') return `forward to ${action.phoneNumber}`;
  return `add the sender to the group “${names.group(action.groupId)}”`;
}

const matchWords: Record<RuleMatchKind, string> = {
  startsWith: 'starts with',
  contains: 'contains',
  regex: 'matches',
  any: 'any text',
};

/** One line saying what a rule does, for the list. */
export function describeRule(
  rule: RuleInput,
  names: { template(id: string): string; group(id: string): string },
): string {
  const match =
    rule.match.kind === 'any' ? 'Any text' : `Text ${matchWords[rule.match.kind]} “${rule.match.pattern}”`;
  const conditions = [
    rule.conditions.deviceId ? `on modem ${rule.conditions.deviceId}` : '',
    rule.conditions.outsideOpeningHours ? 'outside opening hours' : '',
  ].filter((part) => part !== '');
  const action = describeAction(rule.action, names);
  return `${match}${conditions.length ? `, ${conditions.join(', ')}` : ''} → ${action}`;
}
