import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WebhookEventNames } from '../../server/domain/webhookEvents.js';
import { relayedPhoneEvents } from '../../server/phone/phoneWebhooks.js';

/** What the README tells users about which events fire, checked against the code that fires them. */
const readme = readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../README.md'),
  'utf8',
);

/** The event names in backquotes after "Never raised:" in the README's "Webhook events" row, up to the sentence's end. */
function namedNeverRaised(): string[] {
  const row = readme.split('\n').find((line) => line.startsWith('| Webhook events |')) ?? '';
  const sentence = /Never raised: ([^.]*)\./.exec(row)?.[1] ?? '';
  return [...sentence.matchAll(/`([a-z:-]+)`/g)].map((match) => match[1] ?? '');
}

describe('the README on webhook events', () => {
  it('calls never raised only events that nothing here raises', () => {
    const neverRaised = namedNeverRaised();
    expect(neverRaised.length).toBeGreaterThan(0);
    expect(neverRaised.every((name) => (WebhookEventNames as readonly string[]).includes(name))).toBe(true);
    // A phone's MMS events are passed on as ours (server/phone/phoneWebhooks.ts).
    expect(neverRaised.filter((name) => (relayedPhoneEvents as readonly string[]).includes(name))).toEqual(
      [],
    );
  });

  it('names every MMS event a phone passes on where it lists the phone’s events', () => {
    const start = readme.indexOf('Over USB we set a random signing key');
    const paragraph = readme.slice(start, readme.indexOf('\n\n', start));
    for (const event of relayedPhoneEvents) expect(paragraph).toContain(`\`${event}\``);
  });
});
