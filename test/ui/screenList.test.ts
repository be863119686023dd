import { describe, expect, it } from 'vitest';
import { screenFromHash } from '../../renderer/src/screenList.js';

describe('hash routes', () => {
  it.each([
    ['#/messages', 'messages'],
    ['#messages', 'messages'],
    ['#/api', 'api'],
    ['#/messages/abc123', 'messages'],
    ['#/inbox?type=SMS', 'inbox'],
  ])('opens %s on the %s screen', (hash, screen) => {
    expect(screenFromHash(hash)).toBe(screen);
  });

  it.each(['', '#', '#/nowhere'])('falls back to the dashboard for %j', (hash) => {
    expect(screenFromHash(hash)).toBe('dashboard');
  });
});
