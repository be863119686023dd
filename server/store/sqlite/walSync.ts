import { closeSync, fdatasync, openSync } from 'node:fs';
import { privateFileMode } from '../fileSystem.js';

/**
 * fdatasync of the database's write-ahead log on libuv's thread pool, so the event loop goes on
 * while the disk flushes. Calls made while a flush runs share the next one (group commit): each
 * resolves once everything written to the WAL before it was called is on disk. fsync works on
 * the file, not the descriptor, so this descriptor's flush covers SQLite's own writes.
 */
export class WalSync {
  private readonly fd: number;
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  constructor(walPath: string) {
    // SQLite creates the WAL with the database's mode at its first write; 'a' creates it now if
    // it is not there yet (SQLite then takes it over), and never truncates it.
    this.fd = openSync(walPath, 'a', privateFileMode);
  }

  sync(): Promise<void> {
    if (!this.running) {
      this.running = this.flush().finally(() => {
        this.running = undefined;
      });
      return this.running;
    }
    // A flush is under way and may have started before the caller's writes: wait for the next.
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.sync();
      });
    return this.next;
  }

  /** Waits for the flushes under way; then the descriptor may be closed. */
  async settled(): Promise<void> {
    await this.next?.catch(() => undefined);
    await this.running?.catch(() => undefined);
  }

  close(): void {
    closeSync(this.fd);
  }

  private flush(): Promise<void> {
    return new Promise((resolve, reject) =>
      fdatasync(this.fd, (error) => (error ? reject(error) : resolve())),
    );
  }
}
