import { randomBytes } from 'node:crypto';
import type { MessageService } from '../services/messages/messageService.js';
import { VerificationService } from '../services/verify/verificationService.js';
import { SqliteVerificationStore } from '../store/verificationStore.js';
import type { CompositionContext } from './context.js';

/** Verification codes (docs/verification.md): their store and their hash key. */
export async function composeVerifications(
  context: CompositionContext,
  deps: { messages: MessageService },
): Promise<VerificationService> {
  const { storage, settings, clock } = context;
  const document = await storage.openDocument<{ hashKey?: string }>('verification', {});
  if (!document.data.hashKey) {
    const hashKey = randomBytes(32).toString('base64url');
    await document.update((data) => {
      data.hashKey = hashKey;
    });
  }
  return new VerificationService({
    store: new SqliteVerificationStore(storage.sqlite.db, storage.sqlite.commits),
    messages: deps.messages,
    clock,
    hashKey: new Uint8Array(Buffer.from(document.data.hashKey ?? '', 'base64url')),
    defaultCountry: () => settings.current().desk.default_country ?? undefined,
  });
}
