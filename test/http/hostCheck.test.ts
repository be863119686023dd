import { describe, expect, it } from 'vitest';
import { defaultAllowedHosts, hostName } from '../../server/doors/http/hostCheck.js';
import { createLogger, type LogRecord } from '../../server/logging/logger.js';
import { startHttpHarness } from '../support/httpHarness.js';

describe('hostName', () => {
  it.each([
    ['localhost:8080', 'localhost'],
    ['LocalHost', 'localhost'],
    ['127.0.0.1:80', '127.0.0.1'],
    ['[::1]:8080', '[::1]'],
    ['[::1]', '[::1]'],
    ['gateway.lan.', 'gateway.lan.'],
  ])('reads %s as %s', (header, name) => {
    expect(hostName(header)).toBe(name);
  });
});

describe('defaultAllowedHosts', () => {
  it('allows the loopback names and the listen address', () => {
    expect(defaultAllowedHosts('192.168.1.20').sort()).toEqual([
      '127.0.0.1',
      '192.168.1.20',
      '[::1]',
      'localhost',
    ]);
  });

  it('brackets an IPv6 listen address as it appears in a Host header', () => {
    expect(defaultAllowedHosts('fe80::1')).toContain('[fe80::1]');
  });

  it('allows the machine’s own addresses when listening on every interface', () => {
    const names = defaultAllowedHosts('0.0.0.0');
    expect(names).toContain('localhost');
    expect(names).toContain('127.0.0.1');
    expect(names).not.toContain('0.0.0.0');
  });
});

describe('a request naming a host that is not ours (issue 36, item 14)', () => {
  it('gets a 403 that names no allowed host, while the log names them', async () => {
    const records: LogRecord[] = [];
    const harness = await startHttpHarness({
      allowedHosts: ['localhost', '127.0.0.1', '[::1]', 'gateway.office.lan'],
      logger: createLogger({ level: 'INFO', sinks: [(record) => records.push(record)] }),
    });
    try {
      const response = await harness.request('/health', { headers: { Host: 'evil.example:8080' } });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: expect.stringContaining('evil.example') });
      for (const ours of ['localhost', '127.0.0.1', '[::1]', 'gateway.office.lan']) {
        expect(response.text).not.toContain(ours);
      }
      const logged = JSON.stringify(records);
      expect(logged).toContain('evil.example');
      expect(logged).toContain('gateway.office.lan');
    } finally {
      await harness.close();
    }
  });
});
