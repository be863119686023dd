import { type AddressInfo, createServer, type Socket } from 'node:net';
import type { AccessControl } from '../auth/accessControl.js';
import { authenticateSender } from '../auth/senderLogin.js';
import type { Clock } from '../clock/clock.js';
import { ErrorCode, isGatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import { SmppSession } from './smppSession.js';
import { SmppStatus } from './smppStatus.js';
import type { SmppSubmissions } from './smppSubmissions.js';

export interface SmppServerDeps {
  accessControl: AccessControl;
  clock: Clock;
  submissions: SmppSubmissions;
  /** A receiver bound: the deliveries that wait for one may go. */
  receiverBound: () => void;
  /**
   * The live sessions, kept by the caller: the deliver_sm outbox reads them, and exists before
   * and after any one server. The server adds each connection and removes it when it closes.
   */
  sessions: Set<SmppSession>;
  logger: Logger;
  listenError: (error: NodeJS.ErrnoException) => Error;
}

export interface SmppServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The SMPP 3.4 server (docs/email-and-smpp.md): a TCP listener whose every connection is an
 * SmppSession, any number bound at once. The bind's system_id and password are the gateway's
 * login, or any system_id with an API token holding messages:send as the password.
 */
export async function startSmppServer(
  address: { host: string; port: number },
  deps: SmppServerDeps,
): Promise<SmppServer> {
  const { logger, sessions } = deps;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    const session = new SmppSession(
      socket,
      {
        bind: async ({ systemId, password, ip }) => {
          try {
            await authenticateSender(deps.accessControl, {
              username: systemId,
              password,
              ip,
              protocol: 'smpp',
            });
            return SmppStatus.ESME_ROK;
          } catch (error) {
            logger.info('SMPP bind refused', {
              systemId,
              reason: error instanceof Error ? error.message : String(error),
            });
            // §5.1.3: a wrong password is ESME_RINVPASWD; no right to send, or a lock-out, ESME_RBINDFAIL.
            return isGatewayError(error, ErrorCode.Unauthorized)
              ? SmppStatus.ESME_RINVPASWD
              : SmppStatus.ESME_RBINDFAIL;
          }
        },
        request: (pdu, from) => deps.submissions.request(pdu, from.systemId),
        receiverBound: () => deps.receiverBound(),
        closed: (closed) => {
          sessions.delete(closed);
          sockets.delete(socket);
        },
      },
      deps.clock,
      logger,
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
    close: () =>
      new Promise<void>((resolve) => {
        // Gone from the outbox's view at once, not when each socket's close event comes.
        sessions.clear();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
