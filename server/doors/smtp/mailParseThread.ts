import { parentPort } from 'node:worker_threads';
import { simpleParser } from 'mailparser';
import type { MailParseReply, MailParseRequest } from './mailParseProtocol.js';

/**
 * One mail's MIME parse (mailparser.ts), on a thread of its own so that a mail built to be slow
 * or large to parse costs that thread, which its parent ends at its time or memory budget, and
 * never the event loop that serves HTTP, SMPP and the modems. Only what becomes the SMS is
 * asked for: no HTML is made from the text, no links are found in it.
 */
const port = parentPort;
if (!port) throw new Error('mailParseThread runs on a worker thread');

port.once('message', (request: MailParseRequest) => {
  simpleParser(Buffer.from(request.bytes), {
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
    maxHtmlLengthToParse: request.maxHtmlChars,
  }).then(
    (mail) => {
      const reply: MailParseReply = {
        kind: 'parsed',
        ...(mail.subject !== undefined ? { subject: mail.subject } : {}),
        ...(mail.text !== undefined ? { text: mail.text } : {}),
        ...(mail.messageId !== undefined ? { messageId: mail.messageId } : {}),
        ...(mail.textConversionError ? { htmlNotRead: mail.textConversionError.message } : {}),
      };
      port.postMessage(reply);
    },
    (error: unknown) => {
      port.postMessage({ kind: 'failed', message: String(error) } satisfies MailParseReply);
    },
  );
});
