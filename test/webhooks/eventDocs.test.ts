import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WebhookEventNames } from '../../server/contract/domain/webhookEvents.js';
import { relayedPhoneEvents } from '../../server/devices/phone/phoneWebhooks.js';

/** What the docs tell users about which events fire, checked against the code that fires them. */
function readDoc(name: string): string {
  return readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs', name), 'utf8');
}
const decisions = readDoc('decisions.md');
const phones = readDoc('phones.md');

/** The event names in backquotes after "Never raised:" in the decisions' "Webhook events" row, up to the sentence's end. */
function namedNeverRaised(): string[] {
  const row = decisions.split('\n').find((line) => line.startsWith('| Webhook events |')) ?? '';
  const sentence = /Never raised: ([^.]*)\./.exec(row)?.[1] ?? '';
  return [...sentence.matchAll(/`([a-z:-]+)`/g)].map((match) => match[1] ?? '');
}

describe('the docs on webhook events', () => {
  it('calls never raised only events that nothing here raises', () => {
    const neverRaised = namedNeverRaised();
    expect(neverRaised.length).toBeGreaterThan(0);
    expect(neverRaised.every((name) => (WebhookEventNames as readonly string[]).includes(name))).toBe(true);
    // A phone's MMS events are passed on as ours (server/devices/phone/phoneWebhooks.ts).
    expect(neverRaised.filter((name) => (relayedPhoneEvents as readonly string[]).includes(name))).toEqual(
      [],
    );
  });

  it('names every MMS event a phone passes on where it lists the phone’s events', () => {
    const start = phones.indexOf('Over USB we set a random signing key');
    expect(start).toBeGreaterThanOrEqual(0);
    const paragraph = phones.slice(start, phones.indexOf('\n\n', start));
    for (const event of relayedPhoneEvents) expect(paragraph).toContain(`\`${event}\``);
  });
});
