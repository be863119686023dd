import { type SimTarget, targetLabel } from '../domain/simTarget.js';

/**
 * Routing rules (docs/accounts-plans-routing.md, "Routing"): an ordered list, each a number
 * prefix (`+4917`, or a country's `+49`) and the modems or SIM slots that may carry messages to
 * it, with fallback ones used while none of those modems is online. The first rule whose prefix
 * the number starts with wins; a number no rule matches may go through any modem. Pure: the
 * scheduler's hook and the "Try" route ask the same question.
 */
export interface RoutingRule {
  id: string;
  /** E.164 prefix: "+", then 1 to 15 digits. */
  prefix: string;
  deviceIds: SimTarget[];
  /** Used only while none of `deviceIds`' modems is online; empty: the message waits for them. */
  fallbackDeviceIds: SimTarget[];
}

export interface RouteDecision {
  /** Absent: any modem. */
  deviceIds?: SimTarget[];
  /** The rule that decided, if any. */
  ruleId?: string;
  why: string;
}

const labels = (targets: readonly SimTarget[]) => targets.map(targetLabel).join(', ');

export function decideRoute(
  rules: readonly RoutingRule[],
  phoneNumber: string,
  online: ReadonlySet<string>,
): RouteDecision {
  const rule = rules.find((candidate) => phoneNumber.startsWith(candidate.prefix));
  if (!rule) return { why: 'no rule matches: any modem' };
  const anyOnline = rule.deviceIds.some((target) => online.has(target.deviceId));
  if (anyOnline || rule.fallbackDeviceIds.length === 0) {
    return {
      deviceIds: rule.deviceIds,
      ruleId: rule.id,
      why: `rule ${rule.prefix}: ${labels(rule.deviceIds)}${anyOnline ? '' : ' (none online: it waits)'}`,
    };
  }
  return {
    deviceIds: rule.fallbackDeviceIds,
    ruleId: rule.id,
    why: `rule ${rule.prefix}: none of ${labels(rule.deviceIds)} online, so the fallback ${labels(rule.fallbackDeviceIds)}`,
  };
}
