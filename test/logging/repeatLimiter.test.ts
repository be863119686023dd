import { describe, expect, it } from 'vitest';
import type { LogLevel } from '../../server/contract/domain/logLevels.js';
import type { LogRecord } from '../../server/logging/logger.js';
import { limitRepeats } from '../../server/logging/repeatLimiter.js';

function record(
  createdAt: number,
  message: string,
  priority: LogLevel = 'WARN',
  module = 'modem:a',
): LogRecord {
  return { priority, module, message, createdAt };
}

describe('limitRepeats', () => {
  it('passes the first warnings of a kind, then says once how many it left out', () => {
    const seen: LogRecord[] = [];
    const sink = limitRepeats([(entry) => seen.push(entry)], { limit: 3, windowMs: 60_000 });
    for (let index = 0; index < 10; index++) sink(record(index, 'unreadable message indication'));
    expect(seen).toHaveLength(3);
    sink(record(60_000, 'unreadable message indication'));
    expect(seen.map((entry) => entry.message)).toEqual([
      'unreadable message indication',
      'unreadable message indication',
      'unreadable message indication',
      'unreadable message indication (7 more like this in 60 s, not logged)',
      'unreadable message indication',
    ]);
    expect(seen[3]).toMatchObject({ priority: 'WARN', module: 'modem:a', createdAt: 60_000 });
  });

  it('counts each level, module and message on its own', () => {
    const seen: LogRecord[] = [];
    const sink = limitRepeats([(entry) => seen.push(entry)], { limit: 1 });
    sink(record(0, 'send failed'));
    sink(record(1, 'send failed', 'WARN', 'modem:b'));
    sink(record(2, 'send failed', 'ERROR'));
    sink(record(3, 'transport closed'));
    sink(record(4, 'send failed'));
    expect(seen.map((entry) => `${entry.priority} ${entry.module} ${entry.message}`)).toEqual([
      'WARN modem:a send failed',
      'WARN modem:b send failed',
      'ERROR modem:a send failed',
      'WARN modem:a transport closed',
    ]);
  });

  it('never holds back DEBUG or INFO records', () => {
    const seen: LogRecord[] = [];
    const sink = limitRepeats([(entry) => seen.push(entry)], { limit: 1 });
    for (let index = 0; index < 50; index++) {
      sink(record(index, '» AT+CMGR=1', 'DEBUG', 'at'));
      sink(record(index, 'message received', 'INFO', 'inbox'));
    }
    expect(seen).toHaveLength(100);
  });

  it('hands every record that passes to every sink', () => {
    const first: LogRecord[] = [];
    const second: LogRecord[] = [];
    const sink = limitRepeats([(entry) => first.push(entry), (entry) => second.push(entry)], { limit: 2 });
    for (let index = 0; index < 5; index++) sink(record(index, 'noise'));
    expect(first).toHaveLength(2);
    expect(second).toEqual(first);
  });
});
