/**
 * A connected pair of pseudo-terminals from socat, for tests that drive the REAL serialport
 * binding: the gateway opens `hostPath`, a scripted responder opens `devicePath`. Killing socat
 * (close()) makes both ends go away, as a USB unplug does.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface PtyPair {
  hostPath: string;
  devicePath: string;
  /** Kills socat and waits for it to exit; safe to call twice. */
  close(): Promise<void>;
}

const ptyLine = /PTY is (\S+)/g;

export function createPtyPair(): Promise<PtyPair> {
  const socat = spawn('socat', ['-d', '-d', 'pty,raw,echo=0', 'pty,raw,echo=0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    const paths: string[] = [];
    const fail = (error: Error) => {
      socat.kill('SIGKILL');
      reject(error);
    };
    socat.once('error', fail);
    socat.once('exit', (code) => {
      if (paths.length < 2) reject(new Error(`socat exited (${code}) before opening two ptys: ${stderr}`));
    });
    socat.stderr?.setEncoding('utf8');
    socat.stderr?.on('data', (text: string) => {
      stderr += text;
      for (const match of text.matchAll(ptyLine)) if (match[1]) paths.push(match[1]);
      // socat logs "starting data transfer loop" once both ends exist and it relays bytes.
      if (paths.length >= 2 && /starting data transfer loop/.test(stderr)) {
        const [hostPath = '', devicePath = ''] = paths;
        resolve({ hostPath, devicePath, close: () => stop(socat) });
      }
    });
  });
}

function stop(socat: ChildProcess): Promise<void> {
  if (socat.exitCode !== null || socat.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    socat.once('exit', () => resolve());
    socat.kill('SIGTERM');
  });
}
