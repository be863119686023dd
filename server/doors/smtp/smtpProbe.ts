import { connect } from 'node:net';

/** The SMTP listener's test button: it answers a connection with its 220 greeting (RFC 5321 §4.2). */
export function probeSmtpListener(host: string, port: number, timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host === '0.0.0.0' ? '127.0.0.1' : host);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no greeting within ${timeoutMs} ms`));
    }, timeoutMs);
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      if (!received.includes('\n')) return;
      clearTimeout(timer);
      socket.end('QUIT\r\n');
      const line = received.split(/\r?\n/)[0] ?? '';
      if (line.startsWith('220')) resolve(line);
      else reject(new Error(`the listener answered "${line}"`));
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
