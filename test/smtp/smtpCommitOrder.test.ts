/**
 * The 250 after DATA waits for the message to be stored: swaks, a real client, gets no answer
 * while MessageService.enqueue (here held open) has not resolved, and 250 once it has. The
 * access control and the queue are stand-ins; the SMTP listener and the client are real.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../bench/support/gatewayProcess.js';
import type { MessageRecord } from '../../server/contract/domain/message.js';
import { type SmtpListener, startSmtpListener } from '../../server/doors/smtp/smtpListener.js';
import { createLogger } from '../../server/logging/logger.js';
import type { EnqueueRequest } from '../../server/services/messages/messageService.js';
import { everyoneIsTheOwner } from '../support/everyoneIsTheOwner.js';
import { pollUntil } from '../support/pollUntil.js';
import { sendWithSwaks, serverReplies } from '../support/swaks.js';

describe('the SMTP listener and the commit', () => {
  let listener: SmtpListener | undefined;
  afterEach(async () => {
    await listener?.close();
  });

  it('sends 250 only once the enqueue has resolved', async () => {
    const requests: EnqueueRequest[] = [];
    let commit: (() => void) | undefined;
    listener = await startSmtpListener(
      { host: '127.0.0.1', port: await freeLoopbackPort() },
      {
        accessControl: everyoneIsTheOwner,
        messages: {
          enqueue: (request) => {
            requests.push(request);
            return new Promise<MessageRecord>((resolve) => {
              commit = () => resolve({ id: 'stored-1' } as MessageRecord);
            });
          },
        },
        optOuts: { isOptedOut: () => false },
        recordSubmission: () => undefined,
        policy: () => ({ source: 'body', cutMarker: '-- ', maxParts: 10, defaultCountry: 'GB' }),
        logger: createLogger({ level: 'ERROR', sinks: [] }),
        listenError: (error) => error,
      },
    );
    const sending = sendWithSwaks({
      port: listener.port,
      auth: { user: 'u', password: 'p' },
      to: ['+447700900601@sms'],
      data: 'Subject: wait\n\nStored first, then 250.',
    });
    let answered = false;
    void sending.then(() => {
      answered = true;
    });
    await pollUntil(() => requests.length === 1, { what: 'the enqueue' });
    // The client waits on its DATA: nothing was answered while the store has not committed.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    commit?.();
    const run = await sending;
    expect(run.exitCode, run.transcript).toBe(0);
    expect(serverReplies(run.transcript)).toContain('250 2.6.0 queued as stored-1');
  });
});
