import { startThread } from '../../threads/startThread.js';
import type { MailParseReply, MailParseRequest } from './mailParseProtocol.js';
import { type SmtpReplyError, smtpReply } from './smtpReplies.js';

/** What of a mail can become the SMS, and its Message-ID. */
export interface ParsedMail {
  subject?: string;
  text?: string;
  messageId?: string;
  /** Why an HTML part was not read as text (too long, nested too deep). */
  htmlNotRead?: string;
}

export interface MailParserLimits {
  /** How long one mail's parse may take before its thread is ended. */
  timeoutMs: number;
  /** The parsing thread's heap (V8's old generation), in MiB: a mail that needs more is refused. */
  heapMb: number;
  /** Mails parsed at once; later ones wait their turn. */
  concurrent: number;
  /** Mails waiting for a turn; one more is told to try later (421-class 451). */
  maxWaiting: number;
  /** An HTML-only mail's HTML longer than this is not turned into text. */
  maxHtmlChars: number;
}

/** RELIABILITY.md lists these as the SMTP listener's limits. */
export const defaultMailParserLimits: MailParserLimits = {
  timeoutMs: 10_000,
  heapMb: 128,
  concurrent: 2,
  maxWaiting: 16,
  maxHtmlChars: 256 * 1024,
};

export interface MailParser {
  /** Resolves with the mail's parts; rejects with the SMTP reply to give. */
  parse(bytes: Uint8Array): Promise<ParsedMail>;
}

/**
 * Parses each mail on a thread of its own (mailParseThread.ts), within a time and a memory
 * budget: a mail built to be slow or large to parse ends that thread and is refused, and the
 * event loop never waits for it.
 */
export function createMailParser(limits: MailParserLimits = defaultMailParserLimits): MailParser {
  let running = 0;
  const waiting: (() => void)[] = [];

  const turn = (): Promise<void> => {
    if (running < limits.concurrent) {
      running++;
      return Promise.resolve();
    }
    if (waiting.length >= limits.maxWaiting) {
      return Promise.reject(smtpReply(451, 'too many mails are being read at once; try again later'));
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const done = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  const parseOnThread = (bytes: Uint8Array) =>
    new Promise<ParsedMail>((resolve, reject) => {
      const worker = startThread(import.meta.url, 'mailParseThread', {
        resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 16 },
      });
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        void worker.terminate();
        outcome();
      };
      const refuse = (error: SmtpReplyError) => settle(() => reject(error));
      const deadline = setTimeout(
        () =>
          refuse(
            smtpReply(552, `the mail took longer than ${limits.timeoutMs / 1000} s to read; it is refused`),
          ),
        limits.timeoutMs,
      );
      worker.on('message', (reply: MailParseReply) => {
        if (reply.kind === 'parsed') {
          const { kind: _kind, ...mail } = reply;
          settle(() => resolve(mail));
        } else refuse(smtpReply(550, `the mail could not be read: ${reply.message}`));
      });
      worker.on('error', (error: Error & { code?: string }) =>
        refuse(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? smtpReply(552, `the mail needs more than ${limits.heapMb} MiB to read; it is refused`)
            : smtpReply(451, `the mail could not be read now (${error.message}); try again later`),
        ),
      );
      worker.on('exit', () => refuse(smtpReply(451, 'the mail could not be read now; try again later')));
      const request: MailParseRequest = { bytes, maxHtmlChars: limits.maxHtmlChars };
      // Copied, not transferred: a small Buffer's memory is Node's shared pool.
      worker.postMessage(request);
    });

  return {
    async parse(bytes) {
      await turn();
      try {
        return await parseOnThread(bytes);
      } finally {
        done();
      }
    },
  };
}
