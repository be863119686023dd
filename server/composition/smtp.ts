import { readFile } from 'node:fs/promises';
import { jobOfStoredMail, MailForwarding, type StoredMail } from '../doors/smtp/mailForwarding.js';
import type { AccessControl } from '../services/auth/accessControl.js';
import type { RecordSubmission } from '../services/auth/submissionRecord.js';
import type { OptOutList } from '../services/desk/optOut/optOutList.js';
import type { MessageService } from '../services/messages/messageService.js';
import { type SwitchedListener, startSwitchedListener } from '../services/settings/switchedListener.js';
import type { CompositionContext } from './context.js';
import { listenError } from './http.js';

/**
 * E-mail → SMS (server/doors/smtp/): off by default; on loopback unless `smtp.allow_lan`. Started after
 * the modems and the scheduler, like the HTTP API, since every mail it takes is queued at once.
 */
export function startSmtp(
  context: CompositionContext,
  deps: {
    accessControl: AccessControl;
    messages: MessageService;
    optOuts: OptOutList;
    recordSubmission: RecordSubmission;
  },
): SwitchedListener {
  const { settings } = context;
  const logger = context.logger.child('smtp');
  return startSwitchedListener(context, {
    name: 'the SMTP listener',
    configOf: ({ smtp }) =>
      smtp.enabled
        ? {
            host: smtp.allow_lan ? '0.0.0.0' : '127.0.0.1',
            port: smtp.port ?? 2525,
            certFile: smtp.tls_cert_file,
            keyFile: smtp.tls_key_file,
          }
        : undefined,
    // The listener's SMTP and MIME libraries load when it is first switched on, not at every start.
    start: async (config) =>
      (await import('../doors/smtp/smtpListener.js')).startSmtpListener(
        {
          host: config.host,
          port: config.port,
          ...(config.certFile && config.keyFile
            ? { tls: { cert: await readFile(config.certFile), key: await readFile(config.keyFile) } }
            : {}),
        },
        {
          accessControl: deps.accessControl,
          messages: deps.messages,
          optOuts: deps.optOuts,
          recordSubmission: deps.recordSubmission,
          policy: () => {
            const { smtp, desk } = settings.current();
            return {
              source: smtp.text_source ?? 'body',
              cutMarker: smtp.cut_marker ?? '-- ',
              maxParts: smtp.max_parts ?? 10,
              defaultCountry: desk.default_country ?? undefined,
            };
          },
          logger,
          listenError: (error) => listenError(error, config),
        },
      ),
  });
}

/**
 * SMS → e-mail, a listener: started with the webhooks, before anything can raise an incoming
 * SMS, so that none is missed while forwarding is on.
 */
export async function startMailForwarding(context: CompositionContext): Promise<MailForwarding> {
  await context.outbox.adopt(context.storage.openCollection<StoredMail>('email-outbox'), jobOfStoredMail);
  const forwarding = new MailForwarding({
    outbox: context.outbox,
    settings: () => context.settings.current().email_forward,
    events: context.events,
    logger: context.logger.child('email'),
  });
  forwarding.start();
  context.stops.add(() => forwarding.stop());
  return forwarding;
}
