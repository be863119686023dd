import { type AddressInfo, createServer, type Socket } from 'node:net';
import type { Clock } from '../../clock/clock.js';
import { smppSubmission } from '../../contract/domain/submissionWays.js';
import { ErrorCode, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { AccessControl, Principal } from '../../services/auth/accessControl.js';
import { callerOf } from '../../services/auth/appDirectory.js';
import { authenticateSender } from '../../services/auth/senderLogin.js';
import type { RecordSubmission } from '../../services/auth/submissionRecord.js';
import {
  type BindOutcome,
  defaultSessionLimits,
  SmppSession,
  type SmppSessionLimits,
} from './smppSession.js';
import { SmppStatus } from './smppStatus.js';
import type { SmppSubmissions } from './smppSubmissions.js';

export interface SmppServerDeps {
  accessControl: AccessControl;
  clock: Clock;
  submissions: SmppSubmissions;
  /** Tells the audit trail who queued each submitted message. */
  recordSubmission: RecordSubmission;
  /** A receiver bound, or one has room again: the deliveries that wait for one may go. */
  receiverReady: () => void;
  /**
   * The live sessions, kept by the caller: the deliver_sm outbox reads them, and exists before
   * and after any one server. The server adds each connection and removes it when it closes.
   */
  sessions: Set<SmppSession>;
  logger: Logger;
  /** Default: `defaultSessionLimits`. */
  sessionLimits?: SmppSessionLimits;
  /** Connections at once; past it a new one is closed at once. Default `maxSmppConnections`. */
  maxConnections?: number;
  listenError: (error: NodeJS.ErrnoException) => Error;
}

export interface SmppServer {
  readonly port: number;
  /** Clients connected now, bound or not yet. */
  openSessions(): number;
  close(): Promise<void>;
}

/** How long a stop waits for each client's unbind_resp: a stop must not hang on a silent client. */
const unbindWaitMs = 2_000;

/** Connections at once, bound or not: a few SMPP clients on this PC or the office LAN. */
export const maxSmppConnections = 64;

/**
 * The SMPP 3.4 server (docs/email-and-smpp.md): a TCP listener whose every connection is an
 * SmppSession, up to `maxSmppConnections` at once. The bind's system_id and password are a
 * person's or an app's login, or any system_id with an API token holding messages:send as the
 * password; the session then acts as that person or app (domain/caller.ts), not as the
 * system_id it gave.
 */
export async function startSmppServer(
  address: { host: string; port: number },
  deps: SmppServerDeps,
): Promise<SmppServer> {
  const { logger, sessions } = deps;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    // Past the cap, refused before any work: file descriptors are the HTTP API's too.
    if (sockets.size >= (deps.maxConnections ?? maxSmppConnections)) {
      logger.warn('SMPP connection refused: too many connections', { connections: sockets.size });
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.setNoDelay(true);
    // Who bound on this connection, and the last message told to the audit trail: the parts of
    // one concatenated message share its id and are one submission.
    let bound: Principal | undefined;
    let lastRecorded: string | undefined;
    const session = new SmppSession(
      socket,
      {
        bind: async ({ systemId, password, ip }): Promise<BindOutcome> => {
          try {
            const principal = await authenticateSender(deps.accessControl, {
              username: systemId,
              password,
              ip,
              via: 'smpp',
            });
            bound = principal;
            return { status: SmppStatus.ESME_ROK, caller: callerOf(principal.user) };
          } catch (error) {
            logger.info('SMPP bind refused', {
              systemId,
              reason: error instanceof Error ? error.message : String(error),
            });
            // §5.1.3: a wrong password is ESME_RINVPASWD; no right to send, or a lock-out, ESME_RBINDFAIL.
            return {
              status: isGatewayError(error, ErrorCode.Unauthorized)
                ? SmppStatus.ESME_RINVPASWD
                : SmppStatus.ESME_RBINDFAIL,
            };
          }
        },
        request: async (pdu, _session, caller) => {
          const answer = await deps.submissions.request(pdu, caller);
          const messageId = answer.fields?.message_id;
          if (
            pdu.command === 'submit_sm' &&
            answer.status === SmppStatus.ESME_ROK &&
            bound &&
            typeof messageId === 'string' &&
            messageId !== lastRecorded
          ) {
            lastRecorded = messageId;
            deps.recordSubmission({
              principal: bound,
              action: smppSubmission,
              summary: 'Submitted an SMS over SMPP',
              subject: messageId,
              fields: [],
            });
          }
          return answer;
        },
        canTakeDeliveries: () => deps.receiverReady(),
        closed: (closed) => {
          sessions.delete(closed);
          sockets.delete(socket);
        },
      },
      deps.clock,
      logger,
      deps.sessionLimits ?? defaultSessionLimits,
    );
    sessions.add(session);
  });
  await new Promise<void>((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) => reject(deps.listenError(error));
    server.once('error', refused);
    server.listen(address.port, address.host, () => {
      server.off('error', refused);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  logger.info(`SMPP listening on ${address.host}:${port}`);
  return {
    port,
    openSessions: () => sessions.size,
    close: async () => {
      const ending = [...sessions];
      // Gone from the outbox's view at once, not when each socket's close event comes.
      sessions.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // §4.2: each client is told with unbind, so it rebinds later rather than see a broken line.
      await Promise.all(ending.map((session) => session.unbindAndClose(unbindWaitMs)));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
