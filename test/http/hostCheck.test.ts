import { describe, expect, it } from 'vitest';
import { defaultAllowedHosts, hostName } from '../../server/http/hostCheck.js';

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
