import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isCoreToMain, isMainToCore } from '../../electron/coreMessages.js';
import { defaultPreferences, IpcChannel, isPreferenceKey } from '../../electron/ipcChannels.js';
import { isOwnUiUrl, isPermissionAllowed } from '../../electron/windowSecurity.js';
import { contentSecurityPolicy } from '../../server/doors/http/contentSecurityPolicy.js';

describe('the Electron IPC contract', () => {
  it('uses in the sandboxed preload exactly the channel names the main process handles', () => {
    // A sandboxed preload cannot import local modules, so it repeats the names: keep them equal.
    const preload = readFileSync('electron/preload.cts', 'utf8');
    const used = [...preload.matchAll(/ipcRenderer\.invoke\('([^']+)'/g)].map((match) => match[1]);
    expect(used.sort()).toEqual(Object.values(IpcChannel).sort());
  });

  it('accepts only known preference keys', () => {
    for (const key of Object.keys(defaultPreferences)) expect(isPreferenceKey(key)).toBe(true);
    expect(isPreferenceKey('__proto__')).toBe(false);
    expect(isPreferenceKey('nodeIntegration')).toBe(false);
    expect(isPreferenceKey(42)).toBe(false);
  });

  it('recognises only well-formed messages between the main and core processes', () => {
    expect(isMainToCore({ type: 'set-sending-paused', paused: true })).toBe(true);
    expect(isMainToCore({ type: 'eval', code: '1' })).toBe(false);
    expect(
      isCoreToMain({
        type: 'ready',
        baseUrl: 'http://127.0.0.1:8080',
        sessionToken: 't',
        simulated: false,
        username: 'sms',
      }),
    ).toBe(true);
    expect(isCoreToMain(null)).toBe(false);
  });

  it('lets the window show only the gateway UI of its own core', () => {
    const base = 'http://127.0.0.1:8080';
    expect(isOwnUiUrl('http://127.0.0.1:8080/ui/#/messages', base)).toBe(true);
    expect(isOwnUiUrl('http://127.0.0.1:8080/docs', base)).toBe(false);
    expect(isOwnUiUrl('http://127.0.0.1:9999/ui/', base)).toBe(false);
    expect(isOwnUiUrl('https://evil.example/ui/', base)).toBe(false);
    expect(isOwnUiUrl('not a url', base)).toBe(false);
  });

  it('grants our own UI the clipboard for its Copy buttons, and nothing else to anyone', () => {
    const base = 'http://127.0.0.1:8080';
    expect(isPermissionAllowed('clipboard-sanitized-write', `${base}/ui/#/api`, base)).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://evil.example/ui/', base)).toBe(false);
    expect(isPermissionAllowed('clipboard-read', `${base}/ui/`, base)).toBe(false);
    expect(isPermissionAllowed('notifications', `${base}/ui/`, base)).toBe(false);
    expect(isPermissionAllowed('clipboard-sanitized-write', `${base}/ui/`, undefined)).toBe(false);
  });

  it('ships a content security policy without inline or remote scripts', () => {
    expect(contentSecurityPolicy).toContain("script-src 'self'");
    expect(contentSecurityPolicy).not.toContain('unsafe-eval');
    expect(contentSecurityPolicy).toContain("object-src 'none'");
  });
});
