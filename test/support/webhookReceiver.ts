import { webcrypto } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import * as x509 from '@peculiar/x509';

export interface ReceivedRequest {
  body: string;
  headers: IncomingMessage['headers'];
  receivedAt: number;
}

export type Responder = (request: ReceivedRequest, index: number) => number | Promise<number>;

/** A real webhook receiver on loopback that records every request it gets. */
export interface WebhookReceiver {
  url: string;
  requests: ReceivedRequest[];
  respondWith(responder: Responder): void;
  close(): Promise<void>;
}

function handler(state: { requests: ReceivedRequest[]; responder: Responder }) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const received = {
        body: Buffer.concat(chunks).toString('utf8'),
        headers: request.headers,
        receivedAt: Date.now(),
      };
      const index = state.requests.push(received) - 1;
      const status = await state.responder(received, index);
      if (status >= 300 && status < 400) response.setHeader('location', 'http://127.0.0.1:9/elsewhere');
      response.writeHead(status).end();
    });
  };
}

export async function startReceiver(
  options: { tls?: { key: string; cert: string } } = {},
): Promise<WebhookReceiver> {
  const state = { requests: [] as ReceivedRequest[], responder: (() => 200) as Responder };
  const server = options.tls
    ? createHttpsServer(options.tls, handler(state))
    : createHttpServer(handler(state));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/hook`,
    requests: state.requests,
    respondWith(responder) {
      state.responder = responder;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A throw-away CA and a server certificate for 127.0.0.1 signed by it, made in-process with
 * @peculiar/x509 on Node's WebCrypto (no openssl CLI needed on the test machine).
 */
export async function createTestCertificates(): Promise<{ ca: string; key: string; cert: string }> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
  const validFrom = new Date(Date.now() - 60_000);
  const validUntil = new Date(Date.now() + 2 * 24 * 3_600_000);
  const caKeys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const caCertificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=Test CA',
    notBefore: validFrom,
    notAfter: validUntil,
    keys: caKeys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  const serverKeys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const serverCertificate = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: 'CN=127.0.0.1',
    issuer: caCertificate.subject,
    notBefore: validFrom,
    notAfter: validUntil,
    publicKey: serverKeys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: algorithm,
    extensions: [new x509.SubjectAlternativeNameExtension([{ type: 'ip', value: '127.0.0.1' }])],
  });
  const serverKey = await webcrypto.subtle.exportKey('pkcs8', serverKeys.privateKey);
  return {
    ca: caCertificate.toString('pem'),
    key: x509.PemConverter.encode(serverKey, 'PRIVATE KEY'),
    cert: serverCertificate.toString('pem'),
  };
}
