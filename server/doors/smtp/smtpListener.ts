import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { type Caller, callerKey } from '../../contract/domain/caller.js';
import { mailSubmission } from '../../contract/domain/submissionWays.js';
import { planText } from '../../contract/pdu/index.js';
import { MaxRecipients } from '../../contract/schemas/messageSchemas.js';
import { ErrorCode, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { AccessControl, Principal } from '../../services/auth/accessControl.js';
import { callerOf } from '../../services/auth/appDirectory.js';
import { authenticateSender } from '../../services/auth/senderLogin.js';
import type { RecordSubmission } from '../../services/auth/submissionRecord.js';
import type { OptOutList } from '../../services/desk/optOut/optOutList.js';
import type { MessageService } from '../../services/messages/messageService.js';
import { createMailParser, type MailParser } from './mailParser.js';
import { recipientOfAddress } from './mailRecipient.js';
import { type MailTextRule, smsTextOfMail } from './mailText.js';
import { smtpReply, smtpReplyOf } from './smtpReplies.js';

/** What the listener reads for every mail, so a settings change applies to the next one. */
export interface MailPolicy extends MailTextRule {
  maxParts: number;
  defaultCountry: string | undefined;
}

export interface SmtpListenerConfig {
  host: string;
  port: number;
  /** PEM key and certificate for STARTTLS; absent: STARTTLS is not offered. */
  tls?: { key: Buffer; cert: Buffer };
}

export interface SmtpListenerDeps {
  accessControl: AccessControl;
  messages: Pick<MessageService, 'enqueue'>;
  optOuts: Pick<OptOutList, 'isOptedOut'>;
  /** Tells the audit trail who queued each mail's SMS. */
  recordSubmission: RecordSubmission;
  policy: () => MailPolicy;
  logger: Logger;
  /** Reads each mail off the event loop; default: within `defaultMailParserLimits`. */
  mailParser?: MailParser;
  /** Turns a refused listen into the gateway's typed error (port in use, forbidden). */
  listenError: (error: NodeJS.ErrnoException) => Error;
}

export interface SmtpListener {
  readonly port: number;
  /** Mail clients connected now. */
  openSessions(): number;
  close(): Promise<void>;
}

/** The gateway's ids are at most 36 characters (MaxMessageIdLength): "mail-" and 31 of a hash. */
const mailIdPrefix = 'mail-';

/**
 * The message id of a mail: the same Message-ID (RFC 5322 §3.6.4) from the same login always
 * gives the same id, so a client that sends a mail again after a lost 250 gets "already
 * queued", not a second SMS. Another login's Message-ID is another id: no sender learns of, or
 * is refused for, a mail of someone else's.
 */
export function messageIdOfMail(messageId: string, caller: Caller): string {
  const key = `${callerKey(caller)}\n${messageId}`;
  return mailIdPrefix + createHash('sha256').update(key).digest('base64url').slice(0, 31);
}

/**
 * The largest mail taken (RFC 1870 SIZE): a text with its HTML twin and a signature logo. An
 * SMS is a few hundred characters; anything near this is attachments, which are not read.
 */
export const maxMailBytes = 4 * 1024 * 1024;

/** Connections at once: a few mail programs on this PC or the office LAN. */
export const maxSmtpClients = 32;

/** Who logged in on a connection (set in onAuth), and the caller their mails are queued as. */
interface SessionLogin {
  principal: Principal;
  caller: Caller;
}

function loginOfSession(session: SMTPServerSession): SessionLogin {
  const login = session.user as SessionLogin | undefined;
  if (!login) throw smtpReply(530, 'authentication required');
  return login;
}

/**
 * The SMTP side of e-mail → SMS (docs/email-and-smpp.md), on Nodemailer's smtp-server and
 * mailparser. AUTH is required; each RCPT is checked at once (number, opt-out); the mail is
 * queued through the same MessageService as POST /messages, and the 250 goes out only once
 * that insert is durable.
 */
export async function startSmtpListener(
  config: SmtpListenerConfig,
  deps: SmtpListenerDeps,
): Promise<SmtpListener> {
  const { logger } = deps;
  const mailParser = deps.mailParser ?? createMailParser();
  const server = new SMTPServer({
    banner: 'Desktop SMS Gateway: e-mail to SMS',
    authMethods: ['PLAIN', 'LOGIN'],
    // Without a certificate there is no way to encrypt: the login then crosses in clear, which
    // the loopback default keeps on this PC.
    allowInsecureAuth: config.tls === undefined,
    ...(config.tls ? { key: config.tls.key, cert: config.tls.cert } : { disabledCommands: ['STARTTLS'] }),
    // RFC 3463 codes beside each reply (5.1.3 bad address, 4.3.1 full…): clients log them.
    hideENHANCEDSTATUSCODES: false,
    size: maxMailBytes,
    maxClients: maxSmtpClients,
    disableReverseLookup: true,
    closeTimeout: 1_000,
    logger: false,
    onAuth(auth, session, callback) {
      authenticateSender(deps.accessControl, {
        username: auth.username ?? '',
        password: auth.password ?? '',
        ip: session.remoteAddress,
        via: 'smtp',
      }).then(
        (principal) => {
          const login: SessionLogin = { principal, caller: callerOf(principal.user) };
          callback(null, { user: login });
        },
        (error: unknown) => callback(smtpReplyOf(error)),
      );
    },
    onRcptTo(address, session, callback) {
      // RFC 5321 §4.5.3.1.10: 452 for one recipient too many; the client sends the rest apart.
      if (session.envelope.rcptTo.length >= MaxRecipients) {
        return callback(smtpReply(452, `at most ${MaxRecipients} recipients per mail`));
      }
      const recipient = recipientOfAddress(address.address, deps.policy().defaultCountry);
      if (!recipient.ok) return callback(refused(session, smtpReply(553, recipient.reason)));
      if (deps.optOuts.isOptedOut(recipient.phoneNumber)) {
        return callback(refused(session, smtpReply(550, `${recipient.phoneNumber} is on the opt-out list`)));
      }
      callback();
    },
    onData(stream, session, callback) {
      queueMail(stream, session).then(
        (reply) => callback(null, reply),
        (error: unknown) =>
          callback(
            refused(session, error instanceof Error && 'responseCode' in error ? error : smtpReplyOf(error)),
          ),
      );
    },
  });

  /**
   * A mail or recipient refused: the client is told, and so is the log, since the sender may be
   * a program nobody watches (a scanner, a monitoring tool).
   */
  const refused = (session: SMTPServerSession, error: Error): Error => {
    const login = session.user as SessionLogin | undefined;
    logger.warn('mail refused', {
      reply: `${(error as { responseCode?: number }).responseCode ?? ''} ${error.message}`.trim(),
      from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
      to: session.envelope.rcptTo.map((address) => address.address).join(', ') || undefined,
      login: login?.principal.user.name,
    });
    return error;
  };

  const queueMail = async (stream: SMTPServerDataStream, session: SMTPServerSession): Promise<string> => {
    const { principal, caller } = loginOfSession(session);
    const bytes = await readMail(stream);
    if (stream.sizeExceeded) throw smtpReply(552, `the mail is larger than ${maxMailBytes} bytes`);
    const mail = await mailParser.parse(bytes);
    const policy = deps.policy();
    const text = smsTextOfMail({ subject: mail.subject, text: mail.text }, policy);
    if (text === '' && mail.htmlNotRead !== undefined) {
      throw smtpReply(
        550,
        `the mail's HTML could not be read as text (${mail.htmlNotRead}); add a plain-text part`,
      );
    }
    if (text === '') throw smtpReply(550, `the mail has no text for the SMS (text from: ${policy.source})`);
    const { parts } = planText(text);
    if (parts > policy.maxParts) {
      throw smtpReply(552, `the text needs ${parts} SMS parts; at most ${policy.maxParts} are allowed`);
    }
    const phoneNumbers = [
      ...new Set(
        session.envelope.rcptTo.map((address) => {
          const recipient = recipientOfAddress(address.address, policy.defaultCountry);
          if (!recipient.ok) throw smtpReply(553, recipient.reason);
          return recipient.phoneNumber;
        }),
      ),
    ];
    const id = mail.messageId ? messageIdOfMail(mail.messageId, caller) : undefined;
    try {
      const queued = await deps.messages.enqueue(
        {
          message: { id, textMessage: { text }, phoneNumbers },
          skipPhoneValidation: false,
          deviceActiveWithinHours: 0,
          burst: `smtp ${callerKey(caller)}`,
        },
        caller,
      );
      logger.info('mail queued as SMS', { id: queued.id, recipients: phoneNumbers.length, parts });
      deps.recordSubmission({
        principal,
        action: mailSubmission,
        summary: 'Queued an SMS from an e-mail',
        subject: queued.id,
        fields: [],
      });
      return `queued as ${queued.id}`;
    } catch (error) {
      if (id !== undefined && isGatewayError(error, ErrorCode.Conflict)) return `already queued as ${id}`;
      throw error;
    }
  };

  await new Promise<void>((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) => reject(deps.listenError(error));
    server.once('error', refused);
    server.listen(config.port, config.host, () => {
      server.off('error', refused);
      resolve();
    });
  });
  server.on('error', (error) => logger.warn('SMTP connection error', { error: error.message }));
  const { port } = server.server.address() as AddressInfo;
  logger.info(`SMTP listening on ${config.host}:${port}${config.tls ? ' (STARTTLS offered)' : ''}`);
  return {
    port,
    openSessions: () => server.connections.size,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The mail's octets, kept only up to the size limit: past it smtp-server marks `sizeExceeded`. */
async function readMail(stream: SMTPServerDataStream): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let kept = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (kept + chunk.length > maxMailBytes) continue;
    chunks.push(chunk);
    kept += chunk.length;
  }
  return Buffer.concat(chunks);
}
