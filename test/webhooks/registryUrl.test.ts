import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../server/errors/gatewayError.js';
import { checkWebhookUrl } from '../../server/services/webhooks/webhookUrl.js';

describe('checkWebhookUrl', () => {
  it.each([
    'https://example.com/hook',
    'https://example.com:8443/hooks/sms?token=abc',
    'https://192.168.1.10/hook',
    'http://127.0.0.1/hook',
    'http://127.0.0.1:3000/hook',
    'http://localhost:8080/',
    'http://LOCALHOST/hook',
    'http://[::1]:9000/hook',
    'HTTPS://EXAMPLE.COM/hook',
  ])('accepts %s', (url) => {
    expect(checkWebhookUrl(url)).toBe(url);
  });

  it('returns the URL without surrounding spaces', () => {
    expect(checkWebhookUrl('  https://example.com/hook ')).toBe('https://example.com/hook');
  });

  it.each([
    ['plain http to a LAN address', 'http://192.168.1.10/hook'],
    ['plain http to a public host', 'http://example.com/hook'],
    ['plain http to a host that merely starts with localhost', 'http://localhost.example.com/hook'],
    ['plain http to a host that merely starts with 127.0.0.1', 'http://127.0.0.1.example.com/hook'],
    ['plain http to another loopback address', 'http://127.0.0.2/hook'],
    ['another scheme', 'ftp://example.com/hook'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative URL', '/hook'],
    ['an empty string', ''],
    ['embedded credentials', 'https://user:pass@example.com/hook'],
    ['a URL longer than 2048 characters', `https://example.com/${'a'.repeat(2_048)}`],
  ])('refuses %s with 400 naming url', (_name, url) => {
    expect(() => checkWebhookUrl(url)).toThrow(
      expect.objectContaining({ code: ErrorCode.ValidationFailed, field: 'url' }),
    );
  });
});

describe('checkWebhookUrl with webhooks.allow_lan_http', () => {
  const lan = { allowLanHttp: true };

  it.each([
    'http://192.168.1.20:8123/api/webhook/abc',
    'http://10.0.0.5/hook',
    'http://172.16.4.1/hook',
    'http://169.254.10.10/hook',
    'http://homeassistant.local:8123/api/webhook/abc',
    'http://[fd12:3456::1]:8123/hook',
    'http://[fe80::1]/hook',
  ])('accepts plain http to the local-network host of %s', (url) => {
    expect(checkWebhookUrl(url, lan)).toBe(url);
  });

  it.each([
    'http://8.8.8.8/hook',
    'http://172.32.0.1/hook',
    'http://example.com/hook',
    'http://[2001:db8::1]/hook',
  ])('still refuses plain http to the public host of %s', (url) => {
    expect(() => checkWebhookUrl(url, lan)).toThrow(
      expect.objectContaining({ code: ErrorCode.ValidationFailed }),
    );
  });

  it('refuses plain http to the local network while the setting is off (the default)', () => {
    expect(() => checkWebhookUrl('http://192.168.1.20:8123/hook')).toThrow(
      expect.objectContaining({ code: ErrorCode.ValidationFailed, field: 'url' }),
    );
  });
});
