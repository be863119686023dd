import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';

/** The desk's routes on the real gateway (real storage, Koa server, built-in simulated modem). */
let harness: GatewayHarness;
beforeAll(async () => {
  harness = await startGatewayHarness({ simulatedModems: 1 });
  await harness.api.patch('/settings', { desk: { default_country: 'DE' } });
});
afterAll(async () => {
  await harness.close();
});

interface Contact {
  id: string;
  phoneNumber: string;
  name: string;
  groupIds: string[];
}
interface Campaign {
  id: string;
  state: string;
  recipients: number;
  progress: { queued: number; sent: number; failed: number; cancelled: number; percent: number };
}

describe('contacts and groups', () => {
  it('stores a contact under the E.164 form of the number as typed, and refuses the same number twice', async () => {
    const created = await harness.api.post<Contact>('/gateway/v1/contacts', {
      name: 'Anna Berg',
      phoneNumber: '0171 1234567',
    });
    expect(created.status).toBe(201);
    expect(created.body.phoneNumber).toBe('+491711234567');
    const again = await harness.api.post('/gateway/v1/contacts', {
      name: 'Anna B',
      phoneNumber: '+49 171 1234567',
    });
    expect(again.status).toBe(409);
  });

  it('answers a number it cannot read with a 400 naming the field and the problem in words', async () => {
    const response = await harness.api.post<{ message: string }>('/gateway/v1/contacts', {
      name: 'Short',
      phoneNumber: '12',
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('phoneNumber: 12 is too short for a number in DE');
  });

  it('keeps group memberships, lists by group and searches by name', async () => {
    const group = await harness.api.post<{ id: string }>('/gateway/v1/groups', { name: 'Regulars' });
    expect(group.status).toBe(201);
    const carl = await harness.api.post<Contact>('/gateway/v1/contacts', {
      name: 'Carl Dorn',
      phoneNumber: '+4915112345678',
      groupIds: [group.body.id],
    });
    expect(carl.body.groupIds).toEqual([group.body.id]);
    const members = await harness.api.get<Contact[]>(`/gateway/v1/contacts?groupId=${group.body.id}`);
    expect(members.body.map((contact) => contact.name)).toEqual(['Carl Dorn']);
    const found = await harness.api.get<Contact[]>('/gateway/v1/contacts?search=berg');
    expect(found.body.map((contact) => contact.name)).toEqual(['Anna Berg']);
    const groups = await harness.api.get<{ name: string; size: number }[]>('/gateway/v1/groups');
    expect(groups.body).toEqual([expect.objectContaining({ name: 'Regulars', size: 1 })]);
  });

  it('names the numbers that are in the address book', async () => {
    const names = await harness.api.post('/gateway/v1/contacts/names', {
      phoneNumbers: ['+491711234567', '+15550000000'],
    });
    expect(names.body).toEqual({ '+491711234567': 'Anna Berg' });
  });
});

describe('CSV import', () => {
  const excelCsv =
    '\uFEFFName;Mobile;Groups\r\n"Eva; the baker";0160 1111111;Bakers\r\nFritz;0160 2222222;Bakers, VIP\r\nEva again;+49 160 1111111;VIP\r\nBroken;12;\r\n';
  const mapping = { phoneNumber: 'Mobile', name: 'Name', groups: 'Groups' };

  it('previews Excel CSV with merged duplicates and a per-row error, and imports nothing while a row is wrong', async () => {
    const preview = await harness.api.post<{
      contacts: { line: number; phoneNumber: string; name: string; groups: string[] }[];
      duplicates: number;
      errors: { line: number; message: string }[];
    }>('/gateway/v1/contacts/import', { csv: excelCsv, mapping });
    expect(preview.status).toBe(200);
    expect(preview.body.contacts).toEqual([
      expect.objectContaining({
        line: 2,
        phoneNumber: '+491601111111',
        name: 'Eva again',
        groups: ['Bakers', 'VIP'],
      }),
      expect.objectContaining({
        line: 3,
        phoneNumber: '+491602222222',
        name: 'Fritz',
        groups: ['Bakers', 'VIP'],
      }),
    ]);
    expect(preview.body.duplicates).toBe(1);
    expect(preview.body.errors).toEqual([
      expect.objectContaining({ line: 5, message: '12 is too short for a number in DE' }),
    ]);

    const refused = await harness.api.post('/gateway/v1/contacts/import', {
      csv: excelCsv,
      mapping,
      commit: true,
    });
    expect(refused.status).toBe(400);
    const after = await harness.api.get<Contact[]>('/gateway/v1/contacts?search=fritz');
    expect(after.body).toEqual([]);
  });

  it('imports the rows without errors when asked to skip the others, and says which were left out', async () => {
    const skipped = await harness.api.post<{
      imported: { created: number; updated: number };
      errorCount: number;
      errors: { line: number }[];
    }>('/gateway/v1/contacts/import', { csv: excelCsv, mapping, commit: true, skipRowsWithErrors: true });
    expect(skipped.status).toBe(200);
    expect(skipped.body.imported).toEqual({ created: 2, updated: 0 });
    expect(skipped.body.errorCount).toBe(1);
    expect(skipped.body.errors.map((error) => error.line)).toEqual([5]);
    const stored = await harness.api.get<Contact[]>('/gateway/v1/contacts?search=%2B49160');
    expect(stored.body.map((contact) => contact.phoneNumber).sort()).toEqual([
      '+491601111111',
      '+491602222222',
    ]);
    // As the file was: the next test imports it whole.
    for (const contact of stored.body)
      await harness.api.request('DELETE', `/gateway/v1/contacts/${contact.id}`);
  });

  it('imports every row in one go once the file is right, creating the groups it names', async () => {
    const fixed = excelCsv.replace('Broken;12;', 'Greta;0160 3333333;');
    const imported = await harness.api.post<{ imported: { created: number; updated: number } }>(
      '/gateway/v1/contacts/import',
      { csv: fixed, mapping, commit: true },
    );
    expect(imported.status).toBe(200);
    expect(imported.body.imported).toEqual({ created: 3, updated: 0 });
    const groups = await harness.api.get<{ name: string; size: number }[]>('/gateway/v1/groups');
    expect(groups.body.map((group) => [group.name, group.size])).toEqual([
      ['Bakers', 2],
      ['Regulars', 1],
      ['VIP', 2],
    ]);
  });
});

describe('templates', () => {
  it('stores a template and lists its placeholders', async () => {
    const created = await harness.api.post<{ id: string; placeholders: string[] }>('/gateway/v1/templates', {
      name: 'Order ready',
      text: 'Hello {name}, your order {order} is ready',
    });
    expect(created.status).toBe(201);
    expect(created.body.placeholders).toEqual(['name', 'order']);
    const duplicate = await harness.api.post('/gateway/v1/templates', { name: 'order READY', text: 'x' });
    expect(duplicate.status).toBe(409);
  });
});

describe('campaigns', () => {
  it('previews recipients after de-duplication with parts, and names rows missing a placeholder value', async () => {
    const groups = await harness.api.get<{ id: string; name: string }[]>('/gateway/v1/groups');
    const bakers = groups.body.find((group) => group.name === 'Bakers')?.id;
    const preview = await harness.api.post<{
      recipients: number;
      duplicates: number;
      totalParts: number;
      samples: { text: string }[];
      problems: { field: string; message: string }[];
    }>('/gateway/v1/campaigns/preview', {
      text: 'Hello {name}, your order {order} is ready',
      recipients: {
        rows: [
          { phoneNumber: '0160 1111111', fields: { order: 'A-1' } },
          { phoneNumber: '0160 2222222', fields: { order: 'A-2', name: 'Fritz F.' } },
          { phoneNumber: '0160 4444444', fields: {} },
        ],
        groupIds: [bakers],
        phoneNumbers: ['+49 160 1111111'],
      },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.duplicates).toBe(3);
    expect(preview.body.recipients).toBe(2);
    expect(preview.body.totalParts).toBe(2);
    expect(preview.body.samples.map((sample) => sample.text)).toEqual([
      'Hello Eva again, your order A-1 is ready',
      'Hello Fritz F., your order A-2 is ready',
    ]);
    expect(preview.body.problems).toEqual([
      { field: 'recipients.rows[2]', message: 'no value for {name}, {order} (+491604444444)' },
    ]);
  });

  it('queues nothing when a recipient has a problem', async () => {
    const before = await harness.api.get<unknown[]>('/gateway/v1/campaigns');
    const refused = await harness.api.post<{ message: string }>('/gateway/v1/campaigns', {
      text: 'Hi {name}',
      recipients: { phoneNumbers: ['+4916055555', 'not a number'] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(
      /^recipients\.phoneNumbers\[1\]: not a number is not a phone number/,
    );
    const after = await harness.api.get<unknown[]>('/gateway/v1/campaigns');
    expect(after.body.length).toBe(before.body.length);
  });

  it('queues the rest with skipProblems, and nothing for the recipients with a problem', async () => {
    const started = await harness.api.post<Campaign>('/gateway/v1/campaigns', {
      text: 'Opening hours change on Monday',
      recipients: { phoneNumbers: ['+4916055556', 'not a number', '+4916055557'] },
      skipProblems: true,
    });
    expect(started.status).toBe(202);
    expect(started.body.recipients).toBe(2);
    const report = await harness.api.get<{ phoneNumber: string }[]>(
      `/gateway/v1/campaigns/${started.body.id}/recipients`,
    );
    expect(report.body.map((row) => row.phoneNumber).sort()).toEqual(['+4916055556', '+4916055557']);
  });

  it('sends a campaign to every recipient and reports it completed', async () => {
    const started = await harness.api.post<Campaign>('/gateway/v1/campaigns', {
      name: 'Price list',
      text: 'New prices from Monday, {name}',
      recipients: { contactIds: [], phoneNumbers: ['+491711234567', '+4915112345678'] },
    });
    expect(started.status).toBe(202);
    expect(started.body.recipients).toBe(2);
    await pollUntil(
      async () =>
        (await harness.api.get<Campaign>(`/gateway/v1/campaigns/${started.body.id}`)).body.state ===
        'Completed',
      { what: 'the campaign to complete', limitMs: 30_000 },
    );
    const done = await harness.api.get<Campaign>(`/gateway/v1/campaigns/${started.body.id}`);
    expect(done.body.progress).toMatchObject({ queued: 0, sent: 2, failed: 0, percent: 100 });
  });

  it('cancels the messages of a campaign still waiting as a whole', async () => {
    await harness.api.post('/gateway/v1/sending', { paused: true });
    const started = await harness.api.post<Campaign>('/gateway/v1/campaigns', {
      text: 'Closed on Sunday',
      recipients: { phoneNumbers: ['+491601000001', '+491601000002', '+491601000003'] },
    });
    const cancelled = await harness.api.post<Campaign>(`/gateway/v1/campaigns/${started.body.id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.state).toBe('Cancelled');
    expect(cancelled.body.progress).toMatchObject({ queued: 0, cancelled: 3, percent: 0 });
  });
});
