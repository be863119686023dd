import { connect } from 'node:net';
import { decodePdu, encodePdu, PduFramer } from './smppPdu.js';

/** The SMPP server's test button: an enquire_link (§4.11), which needs no bind, gets its response. */
export function probeSmppServer(host: string, port: number, timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host === '0.0.0.0' ? '127.0.0.1' : host);
    const framer = new PduFramer();
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no enquire_link_resp within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => socket.write(encodePdu('enquire_link', 1)));
    socket.on('data', (chunk: Buffer) => {
      const [first] = framer.push(chunk).pdus;
      if (!first) return;
      clearTimeout(timer);
      socket.destroy();
      const pdu = decodePdu(first);
      if (pdu.command === 'enquire_link_resp') resolve('enquire_link answered');
      else reject(new Error(`the server answered ${pdu.command}`));
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
