import { describe, expect, it } from 'vitest';
import {
  checkNetworkTarget,
  hostOfUrl,
  isPrivateAddress,
} from '../../server/devices/transport/networkTargets.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';

/** Second security review (issue 36), item 8: what counts as this computer or a private network. */
describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.8.1',
    '169.254.169.254',
    '100.64.0.7',
    '::',
    '::1',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:192.168.1.20',
  ])('%s is private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '172.32.0.1',
    '192.169.0.1',
    '100.128.0.1',
    '2001:db8::7',
    '2a00:1450::1',
    '::ffff:8.8.8.8',
  ])('%s is not', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('checkNetworkTarget', () => {
  const resolvesTo =
    (...addresses: string[]) =>
    async () =>
      addresses;

  it('takes a public address, and a name whose every address is public', async () => {
    await checkNetworkTarget('203.0.113.9', 'path', { allowPrivate: false });
    await checkNetworkTarget('modem.example.com', 'path', {
      allowPrivate: false,
      resolve: resolvesTo('203.0.113.9', '2001:db8::9'),
    });
  });

  it('refuses loopback, a private address, and a name with one of them, naming the field and the setting', async () => {
    for (const [host, resolve] of [
      ['127.0.0.1', undefined],
      ['192.168.1.50', undefined],
      ['::1', undefined],
      ['localtest.example', resolvesTo('127.0.0.1')],
      ['mixed.example', resolvesTo('203.0.113.9', '10.0.0.5')],
    ] as const) {
      const checking = checkNetworkTarget(host, 'url', {
        allowPrivate: false,
        ...(resolve ? { resolve } : {}),
      });
      await expect(checking, host).rejects.toMatchObject({
        code: ErrorCode.ValidationFailed,
        field: 'url',
        message: expect.stringMatching(/^url: .*network\.allow_private_targets/),
      });
    }
  });

  it('refuses a name that does not resolve, as it cannot be checked', async () => {
    const checking = checkNetworkTarget('nowhere.invalid', 'path', {
      allowPrivate: false,
      resolve: () => Promise.reject(new Error('ENOTFOUND')),
    });
    await expect(checking).rejects.toMatchObject({ code: ErrorCode.ValidationFailed, field: 'path' });
  });

  it('takes anything, without looking it up, while the setting is on', async () => {
    const resolve = () => Promise.reject(new Error('not to be asked'));
    await checkNetworkTarget('127.0.0.1', 'path', { allowPrivate: true, resolve });
    await checkNetworkTarget('modem.lan', 'path', { allowPrivate: true, resolve });
  });
});

describe('hostOfUrl', () => {
  it.each([
    ['http://192.168.8.1', '192.168.8.1'],
    ['http://[::1]:8080', '::1'],
    ['https://phone.lan:8080/', 'phone.lan'],
    ['not a url', undefined],
  ])('reads %s as %s', (url, host) => {
    expect(hostOfUrl(url)).toBe(host);
  });
});
