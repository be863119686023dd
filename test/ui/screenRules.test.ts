import { describe, expect, it } from 'vitest';
import type { LogRecord } from '../../renderer/src/api/types.js';
import { curlSendExample, shellQuote } from '../../renderer/src/apiAccess/apiExamples.js';
import { inboxRecordFromEvent, matchesInboxFilter } from '../../renderer/src/inbox/inboxRows.js';
import {
  appendToTail,
  mergeHistory,
  moduleNames,
  oldestFirst,
  passesLogFilter,
} from '../../renderer/src/logs/logTail.js';
import { webhookUrlProblem } from '../../renderer/src/webhooks/webhookForm.js';

describe('the inbox rules', () => {
  const record = inboxRecordFromEvent({
    id: 'in1',
    type: 'SMS',
    deviceId: 'modem-a',
    simNumber: 1,
    sender: '+15557654321',
    content: 'Hello from a phone',
    receivedAt: Date.UTC(2026, 10, 22, 10, 0, 0),
  });

  it('turns a live incoming event into an inbox row', () => {
    expect(record).toEqual({
      id: 'in1',
      type: 'SMS',
      sender: '+15557654321',
      simNumber: 1,
      deviceId: 'modem-a',
      contentPreview: 'Hello from a phone',
      createdAt: '2026-11-22T10:00:00.000Z',
    });
  });

  it('shows a live SMS only when it matches the filter', () => {
    expect(matchesInboxFilter(record, { search: 'hello' })).toBe(true);
    expect(matchesInboxFilter(record, { search: 'HÉLLO' })).toBe(true);
    expect(matchesInboxFilter(record, { search: '7654321' })).toBe(true);
    expect(matchesInboxFilter(record, { type: 'DATA_SMS' })).toBe(false);
    expect(matchesInboxFilter(record, { deviceId: 'modem-b' })).toBe(false);
    expect(matchesInboxFilter(record, { from: '2026-11-22T11:00:00Z' })).toBe(false);
  });
});

describe('the log tail', () => {
  const entry = (priority: LogRecord['priority'], module: string, createdAt: string | number): LogRecord => ({
    priority,
    module,
    message: `${module} says ${priority}`,
    createdAt,
  });

  it('shows the chosen level and above, for one module or all', () => {
    const warn = entry('WARN', 'modem:1', 1);
    expect(passesLogFilter(warn, { minPriority: 'INFO', module: '', text: '' })).toBe(true);
    expect(passesLogFilter(warn, { minPriority: 'ERROR', module: '', text: '' })).toBe(false);
    expect(passesLogFilter(warn, { minPriority: 'DEBUG', module: 'scheduler', text: '' })).toBe(false);
    expect(passesLogFilter(warn, { minPriority: 'DEBUG', module: '', text: 'SAYS warn' })).toBe(true);
  });

  it('keeps only the newest entries, oldest first', () => {
    const tail = appendToTail([entry('INFO', 'a', 1), entry('INFO', 'b', 2)], [entry('INFO', 'c', 3)], 2);
    expect(tail.map((record) => record.module)).toEqual(['b', 'c']);
    expect(
      oldestFirst([entry('INFO', 'late', '2026-11-22T10:00:02Z'), entry('INFO', 'early', 1)]).map(
        (record) => record.module,
      ),
    ).toEqual(['early', 'late']);
    expect(moduleNames(tail.concat(entry('INFO', 'b', 4)))).toEqual(['b', 'c']);
  });

  it('drops live entries that the history it was merged with already holds', () => {
    const history = [entry('INFO', 'b', '2026-11-22T10:00:02Z'), entry('INFO', 'a', '2026-11-22T10:00:01Z')];
    const live = [
      entry('INFO', 'b', Date.parse('2026-11-22T10:00:02Z')),
      entry('INFO', 'c', Date.parse('2026-11-22T10:00:03Z')),
    ];
    expect(mergeHistory(history, live, 10).map((record) => record.module)).toEqual(['a', 'b', 'c']);
  });
});

describe('webhook addresses', () => {
  it.each([
    ['https://hooks.example.com/sms', undefined],
    ['http://127.0.0.1:3000/hook', undefined],
    ['http://localhost/hook', undefined],
    ['http://[::1]:8080/', undefined],
  ])('accepts %s', (url, problem) => {
    expect(webhookUrlProblem(url)).toBe(problem);
  });

  it.each(['', 'hooks.example.com', 'http://example.com/hook', 'ftp://example.com/'])('refuses %j', (url) => {
    expect(webhookUrlProblem(url)).toBeTypeOf('string');
  });
});

describe('the API access examples', () => {
  it('quotes for a POSIX shell, including single quotes', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });

  it('writes a curl line with the Basic user when no token was created', () => {
    expect(curlSendExample('http://127.0.0.1:8080/', { username: 'admin' })).toBe(
      `curl -X POST 'http://127.0.0.1:8080/messages' -u 'admin:PASSWORD' -H 'Content-Type: application/json' -d '{"textMessage":{"text":"Hello from the SMS gateway"},"phoneNumbers":["+15551234567"]}'`,
    );
  });

  it('uses a freshly created token as a Bearer header', () => {
    expect(curlSendExample('http://127.0.0.1:8080', { token: 'eyJ.x.y', username: 'admin' })).toContain(
      `-H 'Authorization: Bearer eyJ.x.y'`,
    );
  });
});
