/**
 * The `smpp` npm package's client session (farhadi/node-smpp, lib/smpp.js) as a second real SMPP
 * client beside Net::SMPP, wrapped in promises: a request resolves with its response PDU.
 */
import smpp from 'smpp';

export interface ClientPdu {
  command: string;
  command_status: number;
  sequence_number: number;
  [field: string]: unknown;
}

export interface SmppClient {
  /** Resolves with the response, or undefined once the connection ended without one. */
  request(command: string, fields?: Record<string, unknown>): Promise<ClientPdu | undefined>;
  /** Every deliver_sm received so far (each answered with ESME_ROK). */
  readonly delivered: ClientPdu[];
  /** Resolves once the server has closed the connection. */
  readonly closed: Promise<void>;
  /** Writes raw octets, for malformed PDUs. */
  writeRaw(bytes: Buffer): void;
  /** generic_nack PDUs received. */
  readonly nacks: ClientPdu[];
  destroy(): void;
}

export function connectSmpp(port: number): Promise<SmppClient> {
  return new Promise((resolve, reject) => {
    const session = smpp.connect({ url: `smpp://127.0.0.1:${port}` });
    const delivered: ClientPdu[] = [];
    const nacks: ClientPdu[] = [];
    const closed = new Promise<void>((done) => session.on('close', () => done()));
    let connected = false;
    // Before the connection: a refusal. After: the close that follows ends every request.
    session.on('error', (error) => {
      if (!connected) reject(error);
    });
    session.on('pdu', (pdu: ClientPdu) => {
      if (pdu.command === 'deliver_sm') {
        delivered.push(pdu);
        session.send(
          new smpp.PDU('deliver_sm_resp', { sequence_number: pdu.sequence_number, message_id: '' }),
        );
      }
      if (pdu.command === 'generic_nack') nacks.push(pdu);
    });
    session.on('connect', () => {
      connected = true;
      resolve({
        delivered,
        nacks,
        closed,
        request: (command, fields = {}) =>
          new Promise<ClientPdu | undefined>((answer) => {
            void closed.then(() => answer(undefined));
            const sent = session.send(new smpp.PDU(command, fields), (response) =>
              answer(response as ClientPdu),
            );
            if (!sent) answer(undefined);
          }),
        writeRaw: (bytes) => {
          (session as unknown as { socket: { write(bytes: Buffer): void } }).socket.write(bytes);
        },
        destroy: () => session.destroy(),
      });
    });
  });
}
