/**
 * Debian's `swaks` (Swiss Army Knife for SMTP) as the real mail client of the e-mail → SMS
 * suites. A mail is written to a file and sent with `--data`, so its headers are exactly ours.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireSystemTool } from './systemTools.js';

export interface SwaksRun {
  /** 0 when the server took the mail; swaks' own codes otherwise (24: no RCPT taken, 26: the mail refused after its data, 28: AUTH failed). */
  exitCode: number | null;
  /** The whole session as swaks prints it: `->` lines sent, `<-` / `<~` lines received. */
  transcript: string;
}

export interface SwaksMail {
  port: number;
  to: readonly string[];
  /** The raw message: headers, a blank line, the body (lines end in \r\n on the wire). */
  data: string;
  auth?: { user: string; password: string; method?: 'PLAIN' | 'LOGIN' };
  /** Extra flags, e.g. ['--tls'] for STARTTLS. */
  extra?: readonly string[];
}

export async function sendWithSwaks(mail: SwaksMail): Promise<SwaksRun> {
  const swaks = requireSystemTool('swaks');
  const folder = await mkdtemp(join(tmpdir(), 'smsgw-swaks-'));
  try {
    const dataFile = join(folder, 'mail.eml');
    await writeFile(dataFile, mail.data.replace(/\r?\n/g, '\r\n'));
    const args = [
      '--server',
      '127.0.0.1',
      '--port',
      String(mail.port),
      '--from',
      'booking@example.com',
      '--to',
      mail.to.join(','),
      '--data',
      `@${dataFile}`,
      '--timeout',
      '60',
      ...(mail.auth
        ? [
            `--auth=${mail.auth.method ?? 'PLAIN'}`,
            `--auth-user=${mail.auth.user}`,
            `--auth-password=${mail.auth.password}`,
          ]
        : []),
      ...(mail.extra ?? []),
    ];
    return await new Promise<SwaksRun>((resolve, reject) => {
      // Getopt::Long takes an argument starting with + (`--to +4477…`) for an option unless
      // POSIXLY_CORRECT is set (perldoc Getopt::Long, "Configuring Getopt::Long": prefix_pattern).
      const child = spawn(swaks, args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, POSIXLY_CORRECT: '1' },
      });
      let transcript = '';
      child.stdout.on('data', (chunk: Buffer) => {
        transcript += chunk.toString('utf8');
      });
      child.stderr.on('data', (chunk: Buffer) => {
        transcript += chunk.toString('utf8');
      });
      child.once('error', (error) =>
        reject(new Error(`swaks could not run (apt-get install -y swaks): ${error.message}`)),
      );
      child.once('close', (exitCode) => resolve({ exitCode, transcript }));
    });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The server's reply lines (`<- 250 …`, `<** 550 …`) of a swaks transcript, without the arrows. */
export function serverReplies(transcript: string): string[] {
  return transcript
    .split('\n')
    .filter((line) => /^\s*<[-~*]+ /.test(line))
    .map((line) => line.replace(/^\s*<[-~*]+\s+/, '').trimEnd());
}
