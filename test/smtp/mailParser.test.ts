/**
 * Each mail is parsed on a thread of its own, within a time and a memory budget
 * (server/doors/smtp/mailParser.ts): what passes a budget is refused with an SMTP reply, and the
 * parent thread never runs the parse.
 */
import { describe, expect, it } from 'vitest';
import { createMailParser, defaultMailParserLimits } from '../../server/doors/smtp/mailParser.js';

const plainMail = Buffer.from(
  'Subject: Booking\r\nMessage-ID: <b-1@example.com>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nGrüße, 19:30.\r\n',
);

describe('the mail parser', () => {
  it('reads the subject, the text and the Message-ID on its thread', async () => {
    const mail = await createMailParser().parse(plainMail);
    expect(mail).toEqual({ subject: 'Booking', text: 'Grüße, 19:30.\n', messageId: '<b-1@example.com>' });
  });

  it('refuses with 552 a mail that takes longer than its time', async () => {
    const parser = createMailParser({ ...defaultMailParserLimits, timeoutMs: 1 });
    await expect(parser.parse(plainMail)).rejects.toMatchObject({ responseCode: 552 });
  });

  it('refuses with 552 a mail that needs more memory than its thread may have', async () => {
    // A 4 MB quoted-printable text: read whole within the default budget, refused within 16 MiB.
    const line = `${'Ab '.repeat(25)}\r\n`;
    const body = line.repeat(Math.floor(4_000_000 / line.length));
    const mail = Buffer.from(
      `Subject: b\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${body}`,
    );
    const small = createMailParser({ ...defaultMailParserLimits, heapMb: 16 });
    await expect(small.parse(Buffer.from(mail))).rejects.toMatchObject({ responseCode: 552 });
    expect((await createMailParser().parse(mail)).subject).toBe('b');
  }, 60_000);

  it('tells a mail past the waiting line to try later (451), and parses the one it took', async () => {
    const parser = createMailParser({ ...defaultMailParserLimits, concurrent: 1, maxWaiting: 0 });
    const [first, second] = await Promise.allSettled([parser.parse(plainMail), parser.parse(plainMail)]);
    expect(first.status).toBe('fulfilled');
    expect(second).toMatchObject({ status: 'rejected', reason: { responseCode: 451 } });
  });
});
