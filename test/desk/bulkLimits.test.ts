import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { healthDuring } from '../support/healthDuring.js';

/**
 * Security review (issue 36) item 5: a bulk request holds neither the gateway's event loop nor
 * its field limits. The gateway runs in this process, so how long `/health/live` takes to answer
 * while a bulk request runs is how long that request held the event loop at a stretch. The
 * bounds are generous (a loaded CI machine); before the fix the holds were tens of seconds.
 */
let harness: GatewayHarness;
beforeAll(async () => {
  harness = await startGatewayHarness({ simulatedModems: 1 });
  await harness.api.patch('/settings', { desk: { default_country: 'DE' } });
  // Campaign messages stay queued: the test is about accepting them, not sending them.
  await harness.api.post('/gateway/v1/sending', { paused: true });
});
afterAll(async () => {
  await harness.close();
});

const healthBoundMs = 2_000;
const numbers = (count: number) =>
  Array.from({ length: count }, (_, index) => `+49160${String(index).padStart(7, '0')}`);

interface ImportReport {
  contacts: { name: string }[];
  errors: { line: number; field: string; message: string }[];
  errorCount: number;
  imported?: { created: number; updated: number };
}

describe('a contact import', () => {
  it('refuses a file of 1,000,000 bad rows with a 413 naming the limit, at once and in a few bytes', async () => {
    const csv = `phone\n${'12\n'.repeat(1_000_000)}`;
    const { result, longestMs } = await healthDuring(
      harness.url,
      harness.api.post<{ message: string }>('/gateway/v1/contacts/import', {
        csv,
        mapping: { phoneNumber: 'phone' },
      }),
    );
    console.info(
      `1,000,000-row import: ${result.status}, ${result.text.length} bytes, health ${longestMs} ms`,
    );
    expect(result.status).toBe(413);
    expect(result.body.message).toBe(
      'csv: the file has more than 50000 rows after its header, the most one import takes; split it',
    );
    expect(result.text.length).toBeLessThan(1_000);
    expect(longestMs).toBeLessThan(healthBoundMs);
  });

  it('keeps /health/live answering through 50,000 wrong rows, and lists 100 errors with the count', async () => {
    const csv = `phone\n${'12\n'.repeat(50_000)}`;
    const { result, longestMs } = await healthDuring(
      harness.url,
      harness.api.post<ImportReport>('/gateway/v1/contacts/import', {
        csv,
        mapping: { phoneNumber: 'phone' },
      }),
    );
    console.info(`50,000 wrong rows: ${result.text.length} bytes, health ${longestMs} ms`);
    expect(result.status).toBe(200);
    expect(result.body.errorCount).toBe(50_000);
    expect(result.body.errors).toHaveLength(100);
    expect(result.body.errors[0]).toEqual({
      line: 2,
      field: 'phoneNumber',
      message: '12 is too short for a number in DE',
    });
    expect(result.text.length).toBeLessThan(16_000);
    expect(longestMs).toBeLessThan(healthBoundMs);
  });

  it('refuses a 2,000,000-character name in the words of the API, and stores nothing', async () => {
    // The API's own body limit stops 2 MB of name before its schema: ask it about 201 characters.
    const byApi = await harness.api.post<{ message: string }>('/gateway/v1/contacts', {
      phoneNumber: '+491701234567',
      name: 'x'.repeat(201),
    });
    expect(byApi.status).toBe(400);
    const [field, message] = byApi.body.message.split(/: (.*)/s);
    expect(field).toBe('name');

    const csv = `phone,name,notes\n+491701234567,${'x'.repeat(2_000_000)},\n+491701234568,Anna,${'n'.repeat(2_001)}\n`;
    const mapping = { phoneNumber: 'phone', name: 'name', notes: 'notes' };
    const preview = await harness.api.post<ImportReport>('/gateway/v1/contacts/import', { csv, mapping });
    expect(preview.status).toBe(200);
    expect(preview.body.errors).toEqual([
      { line: 2, field: 'name', message },
      { line: 3, field: 'notes', message: 'Too big: expected string to have <=2000 characters' },
    ]);
    expect(preview.body.contacts).toEqual([]);
    expect(preview.text.length).toBeLessThan(1_000);

    const committed = await harness.api.post<{ message: string }>('/gateway/v1/contacts/import', {
      csv,
      mapping,
      commit: true,
    });
    expect(committed.status).toBe(400);
    expect(committed.body.message).toMatch(/^rows: 2 errors \(line 2, name: /);
    const stored = await harness.api.get<unknown[]>('/gateway/v1/contacts?search=%2B4917012345');
    expect(stored.body).toEqual([]);
  });

  it('imports 10,000 contacts while /health/live keeps answering', async () => {
    const csv = `phone,name\n${numbers(10_000)
      .map((number, index) => `${number},Customer ${index}`)
      .join('\n')}\n`;
    const { result, longestMs } = await healthDuring(
      harness.url,
      harness.api.post<ImportReport>('/gateway/v1/contacts/import', {
        csv,
        mapping: { phoneNumber: 'phone', name: 'name' },
        commit: true,
      }),
    );
    console.info(`10,000-contact import: health ${longestMs} ms`);
    expect(result.status).toBe(200);
    expect(result.body.imported).toEqual({ created: 10_000, updated: 0 });
    expect(longestMs).toBeLessThan(healthBoundMs);
  });
});

describe('a campaign', () => {
  const rows = numbers(50_000).map((phoneNumber, index) => ({
    phoneNumber,
    fields: { order: `A-${index}` },
  }));

  it('keeps /health/live answering while 50,000 rows are previewed', async () => {
    const { result, longestMs } = await healthDuring(
      harness.url,
      harness.api.post<{ recipients: number }>('/gateway/v1/campaigns/preview', {
        text: 'Your order {order} is ready',
        recipients: { rows },
      }),
    );
    console.info(`50,000-row preview: health ${longestMs} ms`);
    expect(result.status).toBe(200);
    expect(result.body.recipients).toBe(50_000);
    expect(longestMs).toBeLessThan(healthBoundMs);
  });

  it('keeps /health/live answering while 10,000 messages are queued', async () => {
    const { result, longestMs } = await healthDuring(
      harness.url,
      harness.api.post<{ recipients: number }>('/gateway/v1/campaigns', {
        text: 'Your order {order} is ready',
        recipients: { rows: rows.slice(0, 10_000) },
      }),
    );
    console.info(`10,000-message campaign: health ${longestMs} ms`);
    expect(result.status).toBe(202);
    expect(result.body.recipients).toBe(10_000);
    expect(longestMs).toBeLessThan(healthBoundMs);
  });
});
