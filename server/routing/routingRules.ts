/**
 * Routing rules (docs/accounts-plans-routing.md, "Routing"): an ordered list, each a number
 * prefix (`+4917`, or a country's `+49`) and the modems that may carry messages to it, with
 * fallback modems used while none of those is online. The first rule whose prefix the number
 * starts with wins; a number no rule matches may go through any modem. Pure: the scheduler's
 * hook and the "Try" route ask the same question.
 */
export interface RoutingRule {
  id: string;
  /** E.164 prefix: "+", then 1 to 15 digits. */
  prefix: string;
  deviceIds: string[];
  /** Used only while none of `deviceIds` is online; empty: the message waits for them. */
  fallbackDeviceIds: string[];
}

export interface RouteDecision {
  /** Absent: any modem. */
  deviceIds?: string[];
  /** The rule that decided, if any. */
  ruleId?: string;
  why: string;
}

export function decideRoute(
  rules: readonly RoutingRule[],
  phoneNumber: string,
  online: ReadonlySet<string>,
): RouteDecision {
  const rule = rules.find((candidate) => phoneNumber.startsWith(candidate.prefix));
  if (!rule) return { why: 'no rule matches: any modem' };
  const anyOnline = rule.deviceIds.some((id) => online.has(id));
  if (anyOnline || rule.fallbackDeviceIds.length === 0) {
    return {
      deviceIds: rule.deviceIds,
      ruleId: rule.id,
      why: `rule ${rule.prefix}: ${rule.deviceIds.join(', ')}${anyOnline ? '' : ' (none online: it waits)'}`,
    };
  }
  return {
    deviceIds: rule.fallbackDeviceIds,
    ruleId: rule.id,
    why: `rule ${rule.prefix}: none of ${rule.deviceIds.join(', ')} online, so the fallback ${rule.fallbackDeviceIds.join(', ')}`,
  };
}
