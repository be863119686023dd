import { describe, expect, it } from 'vitest';
import { parseAuthorization } from '../../server/services/auth/authorizationHeader.js';

const basic = (raw: string) => `Basic ${Buffer.from(raw, 'utf8').toString('base64')}`;

describe('parseAuthorization', () => {
  it('reads user name and password from Basic credentials', () => {
    expect(parseAuthorization(basic('sms:secret-pass'))).toEqual({
      scheme: 'basic',
      username: 'sms',
      password: 'secret-pass',
    });
  });

  it('accepts the scheme name in any case (RFC 9110 §11.1)', () => {
    expect(parseAuthorization(`bAsIc ${Buffer.from('a:b').toString('base64')}`)).toMatchObject({
      scheme: 'basic',
    });
    expect(parseAuthorization('BEARER abc.def.ghi')).toEqual({ scheme: 'bearer', token: 'abc.def.ghi' });
  });

  it('ends the user name at the first colon, so the password may contain colons', () => {
    expect(parseAuthorization(basic('user:pa:ss:'))).toMatchObject({ username: 'user', password: 'pa:ss:' });
  });

  it('decodes a unicode password as UTF-8 (RFC 7617 §2.1)', () => {
    expect(parseAuthorization(basic('jürgen:пароль-😀'))).toMatchObject({
      username: 'jürgen',
      password: 'пароль-😀',
    });
  });

  it('accepts Basic credentials whose base64 padding was stripped', () => {
    const unpadded = Buffer.from('ab:c').toString('base64').replace(/=+$/, '');
    expect(parseAuthorization(`Basic ${unpadded}`)).toMatchObject({ username: 'ab', password: 'c' });
  });

  it('keeps an empty password as empty rather than missing', () => {
    expect(parseAuthorization(basic('user:'))).toMatchObject({ username: 'user', password: '' });
  });

  it.each([
    ['Basic credentials that are not base64', 'Basic not*base64!'],
    ['Basic credentials with an impossible base64 length', 'Basic abcde'],
    ['Basic credentials without a colon', basic('no-colon-here')],
    [
      'Basic credentials that are not UTF-8',
      `Basic ${Buffer.from([0x61, 0x3a, 0xff, 0xfe]).toString('base64')}`,
    ],
    ['a scheme without credentials', 'Basic'],
    ['an unsupported scheme', 'Digest username="sms"'],
    ['a Bearer token with spaces inside', 'Bearer abc def'],
    ['a Bearer token with characters RFC 6750 forbids', 'Bearer abc"def'],
  ])('refuses %s', (_name, header) => {
    expect(parseAuthorization(header).scheme).toBe('invalid');
  });
});
