/**
 * The desk through the API of the whole gateway (createGateway on loopback, real storage, the
 * built-in simulated modem): opt-out, conversations, auto-reply rules and scheduled edits.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OutboxJob } from '../../server/contract/domain/outboxJob.js';
import type { SimulatedModem } from '../../server/devices/simulator/simulatedModem.js';
import type { GatewayEvents } from '../../server/services/events/eventBus.js';
import type { WebhookJobPayload } from '../../server/services/webhooks/webhookDelivery.js';
import { databaseFileName } from '../../server/store/sqlite/database.js';
import { openSqlite } from '../../server/store/sqlite/sqlite.js';
import { type ApiMessage, waitForReadyModems, waitForState } from '../integration/support/apiReads.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';

interface Conversation {
  number: string;
  name?: string;
  lastText: string;
  lastDirection: 'in' | 'out';
  unread: number;
  archived: boolean;
  replyDeviceId?: string;
}

interface ThreadMessage {
  direction: 'in' | 'out';
  id: string;
  text: string;
  state?: string;
  error?: string;
}

let harness: GatewayHarness;
let modem: SimulatedModem;
const facts: GatewayEvents['gateway:fact'][] = [];

beforeAll(async () => {
  harness = await startGatewayHarness({ simulatedModems: 1 });
  await waitForReadyModems(harness.api, 1);
  const simulated = harness.gateway.simulatedModems[0];
  if (!simulated) throw new Error('no simulated modem');
  modem = simulated;
  harness.gateway.events.on('gateway:fact', (fact) => facts.push(fact));
});

afterAll(async () => {
  await harness?.close();
});

/** The messages that owed autoreply:sent webhooks name, as a process started after kill -9 would read them. */
function autoRepliesOnDisk(): unknown[] {
  const outside = openSqlite(join(harness.dataDir, databaseFileName), { readOnly: true });
  try {
    return outside
      .prepare<[string], { body: string }>('SELECT body FROM collections WHERE collection = ?')
      .all('outbox')
      .map((row) => JSON.parse(row.body) as OutboxJob<WebhookJobPayload>)
      .filter((job) => job.kind === 'webhook' && job.payload.event === 'autoreply:sent')
      .map((job) => job.payload.payload.messageId);
  } finally {
    outside.close();
  }
}

const pdusTo = (number: string) => modem.accepted.filter((pdu) => pdu.decoded.recipient.number === number);

async function receive(sender: string, text: string): Promise<void> {
  const before = (await harness.api.get<unknown[]>(`/gateway/v1/conversations/${encodeURIComponent(sender)}`))
    .body.length;
  modem.injectIncoming({ sender, text });
  await vi.waitFor(
    async () => {
      const thread = await harness.api.get<unknown[]>(
        `/gateway/v1/conversations/${encodeURIComponent(sender)}`,
      );
      if (thread.body.length <= before) throw new Error('not in the thread yet');
    },
    { timeout: 10_000, interval: 50 },
  );
}

describe('opt-out', () => {
  it('puts a sender who texts "stop" on the list, fails a later send to them only, and START takes them off', async () => {
    const quitter = '+447700900301';
    const other = '+447700900302';
    await receive(quitter, ' stop ');
    await vi.waitFor(async () => {
      const list = await harness.api.get<{ phoneNumber: string; source: string }[]>('/gateway/v1/opt-outs');
      expect(list.body).toContainEqual(expect.objectContaining({ phoneNumber: quitter, source: 'keyword' }));
    });
    // The webhook goes out through the outbox after the list has changed: it may come a moment later.
    await vi.waitFor(() => expect(facts).toContainEqual(expect.objectContaining({ event: 'optout:added' })));

    const sent = await harness.api.post<ApiMessage>('/messages', {
      textMessage: { text: 'Sale on Sunday' },
      phoneNumbers: [quitter, other],
    });
    expect(sent.status).toBe(202);
    const settled = await waitForState(harness.api, `/messages/${sent.body.id}`, 'Sent');
    expect(settled.recipients).toEqual([
      { phoneNumber: quitter, state: 'Failed', error: 'opted out', failure: { code: 'opted-out' } },
      { phoneNumber: other, state: 'Sent' },
    ]);
    expect(pdusTo(quitter)).toHaveLength(0);
    expect(pdusTo(other)).toHaveLength(1);

    const bypass = await harness.api.post<ApiMessage>('/messages', {
      textMessage: { text: 'Your order is ready' },
      phoneNumbers: [quitter],
      ignoreOptOut: true,
    });
    await waitForState(harness.api, `/messages/${bypass.body.id}`, 'Sent');
    expect(pdusTo(quitter)).toHaveLength(1);

    await receive(quitter, 'START');
    await vi.waitFor(async () => {
      const list = await harness.api.get<{ phoneNumber: string }[]>('/gateway/v1/opt-outs');
      expect(list.body.map((entry) => entry.phoneNumber)).not.toContain(quitter);
    });
    await vi.waitFor(() =>
      expect(facts).toContainEqual(expect.objectContaining({ event: 'optout:removed' })),
    );
  });

  it('answers an opt-out once with the confirmation text when one is set', async () => {
    const patched = await harness.api.patch('/settings', {
      opt_out: { confirmation_text: 'You will get no more texts.' },
    });
    expect(patched.status).toBe(200);
    const quitter = '+447700900303';
    await receive(quitter, 'Unsubscribe');
    await vi.waitFor(() => expect(pdusTo(quitter)).toHaveLength(1), { timeout: 10_000 });
    expect(pdusTo(quitter)[0]?.decoded.text).toBe('You will get no more texts.');
    await harness.api.patch('/settings', { opt_out: { confirmation_text: null } });
  });

  it('adds, pages and removes numbers by hand, normalising their spacing', async () => {
    const added = await harness.api.post('/gateway/v1/opt-outs', { phoneNumber: '+44 7700 900 399' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ phoneNumber: '+447700900399', source: 'manual' });
    const page = await harness.api.get<{ phoneNumber: string }[]>('/gateway/v1/opt-outs?limit=1');
    expect(page.body).toEqual([expect.objectContaining({ phoneNumber: '+447700900399' })]);
    expect(Number(page.headers.get('x-total-count'))).toBeGreaterThan(1);
    const removed = await harness.api.request(
      'DELETE',
      `/gateway/v1/opt-outs/${encodeURIComponent('+447700900399')}`,
    );
    expect(removed.status).toBe(204);
    const again = await harness.api.request(
      'DELETE',
      `/gateway/v1/opt-outs/${encodeURIComponent('+447700900399')}`,
    );
    expect(again.status).toBe(404);
    const bad = await harness.api.post<{ message: string }>('/gateway/v1/opt-outs', { phoneNumber: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('phoneNumber');
  });
});

describe('conversations', () => {
  it('files both directions under the party, counts unread, and replies from the modem they wrote to', async () => {
    const customer = '+447700900401';
    await receive(customer, 'Is the shop open on Sunday?');
    const list = await harness.api.get<Conversation[]>('/gateway/v1/conversations');
    expect(list.status).toBe(200);
    expect(list.body[0]).toMatchObject({
      number: customer,
      lastDirection: 'in',
      lastText: 'Is the shop open on Sunday?',
      unread: 1,
      archived: false,
    });

    const path = `/gateway/v1/conversations/${encodeURIComponent(customer)}`;
    const reply = await harness.api.post<ApiMessage>(`${path}/reply`, { text: 'Yes, 10 to 4.' });
    expect(reply.status).toBe(202);
    await waitForState(harness.api, `/messages/${reply.body.id}`, 'Sent');
    expect(pdusTo(customer).map((pdu) => pdu.decoded.text)).toEqual(['Yes, 10 to 4.']);

    const thread = await harness.api.get<ThreadMessage[]>(path);
    expect(thread.headers.get('x-total-count')).toBe('2');
    expect(thread.body.map((message) => [message.direction, message.text])).toEqual([
      ['out', 'Yes, 10 to 4.'],
      ['in', 'Is the shop open on Sunday?'],
    ]);
    expect(thread.body[0]?.state).toBe('Sent');
    const read = await harness.api.get<Conversation[]>('/gateway/v1/conversations');
    expect(read.body.find((entry) => entry.number === customer)?.unread).toBe(0);
  });

  it('marks unread and read, archives and brings back', async () => {
    const customer = '+447700900402';
    await receive(customer, 'Hello');
    const path = `/gateway/v1/conversations/${encodeURIComponent(customer)}`;
    expect((await harness.api.post<Conversation>(`${path}/read`, {})).body.unread).toBe(0);
    expect((await harness.api.post<Conversation>(`${path}/unread`, {})).body.unread).toBe(1);
    const archived = await harness.api.post<Conversation>(`${path}/archive`, { archived: true });
    expect(archived.body.archived).toBe(true);
    const active = await harness.api.get<Conversation[]>('/gateway/v1/conversations');
    expect(active.body.map((entry) => entry.number)).not.toContain(customer);
    const shelf = await harness.api.get<Conversation[]>('/gateway/v1/conversations?archived=true');
    expect(shelf.body.map((entry) => entry.number)).toContain(customer);
    await receive(customer, 'Are you there?');
    const back = await harness.api.get<Conversation[]>('/gateway/v1/conversations');
    expect(back.body.find((entry) => entry.number === customer)).toMatchObject({
      unread: 2,
      archived: false,
    });
  });

  it("finds a conversation by its number's digits or its contact's name, and counts what it found", async () => {
    const [zoe, other] = ['+447700900411', '+447700900412'];
    await receive(zoe, 'About my order');
    await receive(other, 'Hi');
    expect(
      (await harness.api.post('/gateway/v1/contacts', { phoneNumber: zoe, name: 'Zoë Ørsted' })).status,
    ).toBe(201);
    const search = (text: string) =>
      harness.api.get<Conversation[]>(`/gateway/v1/conversations?search=${encodeURIComponent(text)}`);
    // Case and accents do not matter in a name; spaces and signs do not in a number.
    const byName = await search('zoe ors');
    expect(byName.body.map((entry) => entry.number)).toEqual([zoe]);
    expect(byName.headers.get('x-total-count')).toBe('1');
    expect((await search('7700 900412')).body.map((entry) => entry.number)).toEqual([other]);
    expect((await search('nobody')).body).toEqual([]);
  });

  it('answers an empty thread for a party never heard of, and 404 for marking it', async () => {
    const thread = await harness.api.get<unknown[]>('/gateway/v1/conversations/%2B15550000000');
    expect(thread.status).toBe(200);
    expect(thread.body).toEqual([]);
    expect((await harness.api.post('/gateway/v1/conversations/%2B15550000000/read', {})).status).toBe(404);
    const bad = await harness.api.post<{ message: string }>(
      '/gateway/v1/conversations/%2B15550000000/archive',
      {},
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('archived');
  });
});

describe('auto-reply rules', () => {
  it('creates, lists, replaces, reorders, tests and deletes rules', async () => {
    const first = await harness.api.post<{ id: string }>('/gateway/v1/rules', {
      name: 'Opening hours',
      match: { kind: 'contains', pattern: 'open' },
      action: { kind: 'reply', text: 'We open 10 to 4.' },
    });
    expect(first.status).toBe(201);
    const second = await harness.api.post<{ id: string }>('/gateway/v1/rules', {
      name: 'Slow pattern',
      match: { kind: 'regex', pattern: '^(a+)+$' },
      action: { kind: 'forward', phoneNumber: '+447700900999' },
    });
    expect(second.status).toBe(201);
    const tested = await harness.api.post<{ name: string; applies: boolean; reason: string }[]>(
      '/gateway/v1/rules/test',
      { text: `${'a'.repeat(40)}!` },
    );
    expect(tested.body).toEqual([
      expect.objectContaining({ name: 'Opening hours', applies: false, reason: 'the text does not match' }),
      expect.objectContaining({
        name: 'Slow pattern',
        applies: false,
        reason: expect.stringContaining('ran out of time'),
      }),
    ]);
    const open = await harness.api.post<{ applies: boolean }[]>('/gateway/v1/rules/test', {
      text: 'Are you OPEN?',
    });
    expect(open.body.map((verdict) => verdict.applies)).toEqual([true, false]);
    const word = await harness.api.post<{ applies: boolean }[]>('/gateway/v1/rules/test', {
      text: 'reopening',
    });
    expect(word.body.map((verdict) => verdict.applies)).toEqual([true, false]);

    const reordered = await harness.api.request<{ id: string }[]>('PUT', '/gateway/v1/rules/order', {
      json: { ids: [second.body.id, first.body.id] },
    });
    expect(reordered.body.map((rule) => rule.id)).toEqual([second.body.id, first.body.id]);
    const replaced = await harness.api.request<{ enabled: boolean }>(
      'PUT',
      `/gateway/v1/rules/${second.body.id}`,
      {
        json: {
          name: 'Slow pattern',
          enabled: false,
          match: { kind: 'regex', pattern: '^(a+)+$' },
          action: { kind: 'forward', phoneNumber: '+447700900999' },
        },
      },
    );
    expect(replaced.body.enabled).toBe(false);
    expect((await harness.api.request('DELETE', `/gateway/v1/rules/${second.body.id}`)).status).toBe(204);
    expect((await harness.api.request('DELETE', `/gateway/v1/rules/${second.body.id}`)).status).toBe(404);
    expect((await harness.api.request('DELETE', `/gateway/v1/rules/${first.body.id}`)).status).toBe(204);
  });

  it('refuses a broken regular expression and bad opening hours, naming the field', async () => {
    const regex = await harness.api.post<{ message: string }>('/gateway/v1/rules', {
      name: 'Broken',
      match: { kind: 'regex', pattern: '(' },
      action: { kind: 'reply', text: 'x' },
    });
    expect(regex.status).toBe(400);
    expect(regex.body.message).toContain('match.pattern');
    const hours = await harness.api.post<{ message: string }>('/gateway/v1/rules', {
      name: 'Night',
      match: { kind: 'any' },
      conditions: { outsideOpeningHours: { timeZone: 'Mars/Olympus', periods: [] } },
      action: { kind: 'reply', text: 'x' },
    });
    expect(hours.status).toBe(400);
    expect(hours.body.message).toContain('timeZone');
  });

  it('replies to a keyword once per sender within the period, outside opening hours only', async () => {
    const rule = await harness.api.post<{ id: string }>('/gateway/v1/rules', {
      name: 'Price list',
      match: { kind: 'startsWith', pattern: 'PRICE' },
      // Open no hour of the week: every message arrives outside opening hours.
      conditions: { outsideOpeningHours: { timeZone: 'Europe/London', periods: [] } },
      action: { kind: 'reply', text: 'Prices: tea 2, cake 3.' },
    });
    const customer = '+447700900501';
    await receive(customer, 'price list please');
    await vi.waitFor(() => expect(pdusTo(customer)).toHaveLength(1), { timeout: 10_000 });
    expect(pdusTo(customer)[0]?.decoded.text).toBe('Prices: tea 2, cake 3.');
    expect(facts).toContainEqual(
      expect.objectContaining({
        event: 'autoreply:sent',
        payload: expect.objectContaining({ ruleId: rule.body.id }),
      }),
    );
    // The rules run while the message:received event is raised, and a held reply awaits
    // nothing: once the message is in the thread, the decision is made.
    await receive(customer, 'PRICE?');
    const thread = await harness.api.get<ThreadMessage[]>(
      `/gateway/v1/conversations/${encodeURIComponent(customer)}`,
    );
    expect(thread.body.filter((message) => message.direction === 'out')).toHaveLength(1);
    expect(pdusTo(customer)).toHaveLength(1);
    await harness.api.request('DELETE', `/gateway/v1/rules/${rule.body.id}`);
  });
});

describe('an auto-reply’s webhook', () => {
  it('is on disk in the commit of the reply it reports', async () => {
    const hook = await harness.api.post<{ id: string }>('/webhooks', {
      url: 'http://127.0.0.1:9/autoreplies',
      event: 'autoreply:sent',
    });
    const rule = await harness.api.post<{ id: string }>('/gateway/v1/rules', {
      name: 'Hours',
      match: { kind: 'startsWith', pattern: 'HOURS' },
      action: { kind: 'reply', text: 'Open 9 to 5.' },
    });
    const customer = '+447700900521';
    const seen: { messageId: string; onDisk: unknown[] }[] = [];
    // Heard once the reply is durable: its fact's delivery must be durable by then too.
    const stopHearing = harness.gateway.events.on('message:enqueued', ({ message }) => {
      if (message.recipients[0]?.phoneNumber === customer)
        seen.push({ messageId: message.id, onDisk: autoRepliesOnDisk() });
    });
    try {
      await receive(customer, 'hours?');
      await vi.waitFor(() => expect(seen).toHaveLength(1), { timeout: 10_000 });
    } finally {
      stopHearing();
    }
    expect(seen[0]?.onDisk).toContain(seen[0]?.messageId);
    await harness.api.request('DELETE', `/gateway/v1/rules/${rule.body.id}`);
    await harness.api.request('DELETE', `/webhooks/${hook.body.id}`);
  });
});

describe('auto-reply rules with the address book', () => {
  it('replies with a template filled with the contact, and adds the sender to a group', async () => {
    const customer = '+447700900511';
    const contact = await harness.api.post('/gateway/v1/contacts', { phoneNumber: customer, name: 'Ada' });
    expect(contact.status).toBe(201);
    const template = await harness.api.post<{ id: string }>('/gateway/v1/templates', {
      name: 'Thanks',
      text: 'Thanks {name}, we will call you.',
    });
    const group = await harness.api.post<{ id: string }>('/gateway/v1/groups', { name: 'Callbacks' });
    const missing = await harness.api.post<{ message: string }>('/gateway/v1/rules', {
      name: 'Dangling',
      match: { kind: 'any' },
      action: { kind: 'addToGroup', groupId: 'no-such-group' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('action.groupId');
    const rules = [
      await harness.api.post<{ id: string }>('/gateway/v1/rules', {
        name: 'Thank',
        match: { kind: 'startsWith', pattern: 'CALLBACK' },
        action: { kind: 'reply', templateId: template.body.id },
      }),
      await harness.api.post<{ id: string }>('/gateway/v1/rules', {
        name: 'Remember',
        match: { kind: 'startsWith', pattern: 'CALLBACK' },
        action: { kind: 'addToGroup', groupId: group.body.id },
      }),
    ];
    await receive(customer, 'callback please');
    await vi.waitFor(() => expect(pdusTo(customer)).toHaveLength(1), { timeout: 10_000 });
    expect(pdusTo(customer)[0]?.decoded.text).toBe('Thanks Ada, we will call you.');
    await vi.waitFor(async () => {
      const members = await harness.api.get<{ phoneNumber: string }[]>(
        `/gateway/v1/contacts?groupId=${group.body.id}`,
      );
      expect(members.body.map((member) => member.phoneNumber)).toEqual([customer]);
    });
    const list = await harness.api.get<Conversation[]>('/gateway/v1/conversations');
    expect(list.body.find((entry) => entry.number === customer)).toMatchObject({ name: 'Ada' });
    for (const rule of rules) await harness.api.request('DELETE', `/gateway/v1/rules/${rule.body.id}`);
  });

  it('sends nothing to a stranger its placeholder cannot name, and says so on the rule until it is edited', async () => {
    const stranger = '+447700900512';
    const greeting = {
      name: 'Greet by name',
      match: { kind: 'startsWith', pattern: 'HELLO' },
      action: { kind: 'reply', text: 'Hello {name}, we read you.' },
    };
    const rule = await harness.api.post<{ id: string }>('/gateway/v1/rules', greeting);
    const skippedOf = async () =>
      (await harness.api.get<{ id: string; lastSkipped?: unknown }[]>('/gateway/v1/rules')).body.find(
        (entry) => entry.id === rule.body.id,
      )?.lastSkipped;
    await receive(stranger, 'hello there');
    await vi.waitFor(async () => expect(await skippedOf()).toBeDefined(), { timeout: 10_000 });
    expect(await skippedOf()).toEqual({
      phoneNumber: stranger,
      missing: ['name'],
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(pdusTo(stranger)).toEqual([]);
    const logged = await harness.api.get<{ priority: string; message: string }[]>('/logs');
    expect(logged.body).toContainEqual(
      expect.objectContaining({
        priority: 'WARN',
        message: 'an auto-reply was not sent: the sender cannot fill its placeholders',
      }),
    );
    // Mended in the editor, the note goes; the next hello is answered (a skipped reply did not
    // count as one for loop protection).
    const mended = { ...greeting, action: { kind: 'reply', text: 'Hello {name|there}, we read you.' } };
    expect(
      (await harness.api.request('PUT', `/gateway/v1/rules/${rule.body.id}`, { json: mended })).status,
    ).toBe(200);
    expect(await skippedOf()).toBeUndefined();
    await receive(stranger, 'hello again');
    await vi.waitFor(() => expect(pdusTo(stranger)).toHaveLength(1), { timeout: 10_000 });
    expect(pdusTo(stranger)[0]?.decoded.text).toBe('Hello there, we read you.');
    await harness.api.request('DELETE', `/gateway/v1/rules/${rule.body.id}`);
  });
});

describe('editing a scheduled message', () => {
  it('changes the time and text while no modem has it, then refuses once it is sent', async () => {
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const queued = await harness.api.post<ApiMessage>('/messages', {
      textMessage: { text: 'Reminder: tomorrow' },
      phoneNumbers: ['+447700900601'],
      scheduleAt: later,
    });
    expect(queued.status).toBe(202);
    const edited = await harness.api.patch<
      ApiMessage & { scheduleAt: string; textMessage: { text: string } }
    >(`/gateway/v1/messages/${queued.body.id}`, {
      text: 'Reminder: today',
      scheduleAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(edited.status).toBe(200);
    expect(edited.body.textMessage.text).toBe('Reminder: today');
    await waitForState(harness.api, `/messages/${queued.body.id}`, 'Sent');
    expect(pdusTo('+447700900601').map((pdu) => pdu.decoded.text)).toEqual(['Reminder: today']);
    const refused = await harness.api.patch(`/gateway/v1/messages/${queued.body.id}`, { text: 'too late' });
    expect(refused.status).toBe(400);
    const empty = await harness.api.patch<{ message: string }>(`/gateway/v1/messages/${queued.body.id}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('scheduleAt');
    expect((await harness.api.patch('/gateway/v1/messages/nope', { text: 'x' })).status).toBe(404);
  });
});
