import { describe, expect, it } from 'vitest';
import { parseTcpAddress } from '../../server/contract/domain/tcpAddress.js';

describe('parseTcpAddress', () => {
  it.each([
    ['tcp://192.168.1.50:4001', { host: '192.168.1.50', port: 4001 }],
    ['tcp://modem-1.lan:1', { host: 'modem-1.lan', port: 1 }],
    ['tcp://localhost:65535', { host: 'localhost', port: 65_535 }],
    ['tcp://[::1]:2000', { host: '::1', port: 2000 }],
    ['tcp://[2001:db8::7]:4001', { host: '2001:db8::7', port: 4001 }],
  ])('takes %s as host and port', (address, expected) => {
    expect(parseTcpAddress(address)).toEqual(expected);
  });

  it.each([
    ['no port', 'tcp://modem.lan'],
    ['an empty port', 'tcp://modem.lan:'],
    ['port 0', 'tcp://modem.lan:0'],
    ['a port above 65535', 'tcp://modem.lan:65536'],
    ['a port with a leading zero', 'tcp://modem.lan:04001'],
    ['no host', 'tcp://:4001'],
    ['a path', 'tcp://modem.lan:4001/ttyS0'],
    ['a trailing slash', 'tcp://modem.lan:4001/'],
    ['a query', 'tcp://modem.lan:4001?baud=9600'],
    ['a user', 'tcp://admin@modem.lan:4001'],
    ['a second port', 'tcp://modem.lan:4001:4002'],
    ['a space', 'tcp://modem lan:4001'],
    ['trailing text', 'tcp://modem.lan:4001 x'],
    ['a label starting with a hyphen', 'tcp://-modem.lan:4001'],
    ['an underscore', 'tcp://modem_1.lan:4001'],
    ['an IPv4 address out of range', 'tcp://192.168.1.256:4001'],
    ['digits and dots that are no IPv4 address', 'tcp://1.2.3:4001'],
    ['an IPv6 address without brackets', 'tcp://::1:4001'],
    ['a malformed IPv6 address', 'tcp://[1:::2]:4001'],
    ['an IPv6 zone', 'tcp://[fe80::1%eth0]:4001'],
    ['another scheme', 'udp://modem.lan:4001'],
    ['upper case scheme', 'TCP://modem.lan:4001'],
  ])('refuses %s', (_what, address) => {
    expect(parseTcpAddress(address)).toBeUndefined();
  });
});
