import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import type { MessageRequest } from '../../server/contract/schemas/messageSchemas.js';
import { createSendDrafts, draftLifetimeMs } from '../../server/doors/mcp/sendDrafts.js';

const request = { phoneNumbers: ['+15551230401'], textMessage: { text: 'Hello' } } as MessageRequest;
const shop = { kind: 'app', appId: 'shop' } as const;
const other = { kind: 'app', appId: 'other' } as const;

describe('send drafts (docs/mcp.md "Confirmation")', () => {
  it('are sent once, by their own caller only', () => {
    const drafts = createSendDrafts(new ManualClock(0));
    const { id } = drafts.add(request, shop);
    expect(drafts.take(id, other)).toBeUndefined();
    expect(drafts.take(id, { kind: 'person', id: 'owner' })).toBeUndefined();
    expect(drafts.take(id, shop)).toBe(request);
    expect(drafts.take(id, shop)).toBeUndefined();
  });

  it('lapse after their lifetime', async () => {
    const clock = new ManualClock(0);
    const drafts = createSendDrafts(clock);
    const first = drafts.add(request, shop);
    const second = drafts.add(request, shop);
    expect(first.expiresAt).toBe(draftLifetimeMs);
    await clock.advance(draftLifetimeMs - 1);
    expect(drafts.take(first.id, shop)).toBe(request);
    await clock.advance(1);
    expect(drafts.take(second.id, shop)).toBeUndefined();
  });
});
