import type { Logger } from '../../logging/logger.js';
import type { UnsolicitedCode } from '../at/atSession.js';
import type { ModemSource } from '../pool/serialModemSource.js';
import { type ModemSession, type SessionFactory, trackAnswers } from './modemSession.js';

export interface ModemConnectionOptions {
  source: ModemSource;
  createSession: SessionFactory;
  logger: Logger;
  /** Every answer to a command is a sign of life (the driver's `lastSeen`). */
  answered(): void;
  unsolicited(session: ModemSession, code: UnsolicitedCode): void;
  /** The session closed by itself (an unplug, a dropped socket); not called for `close`. */
  closed(session: ModemSession, error?: Error): void;
}

/**
 * A driver's one session at a time: a fresh transport and session on each `open`, its
 * listeners attached before it opens and detached when it goes, so a dead session's last
 * events never reach the driver.
 */
export class ModemConnection {
  private current_?: ModemSession;
  private detachers: Array<() => void> = [];

  constructor(private readonly options: ModemConnectionOptions) {}

  /** The open session, if any. */
  get current(): ModemSession | undefined {
    return this.current_;
  }

  /** Closes any session there is, then opens a fresh transport and session over it. */
  async open(): Promise<ModemSession> {
    await this.close();
    const { options } = this;
    const transport = await options.source.openTransport();
    const session = trackAnswers(options.createSession(transport), () => options.answered());
    this.detachers = [
      session.onUnsolicited((code) => options.unsolicited(session, code)),
      session.onClose((error) => {
        if (this.forget(session)) options.closed(session, error);
      }),
    ];
    try {
      await session.open();
    } catch (error) {
      this.detach();
      throw error;
    }
    this.current_ = session;
    options.logger.info('port open', { transport: transport.description });
    return session;
  }

  async close(): Promise<void> {
    const session = this.current_;
    this.detach();
    this.current_ = undefined;
    if (session) await session.close().catch(() => undefined);
  }

  /** True when `session` was the current one (and is no more). */
  private forget(session: ModemSession): boolean {
    if (this.current_ !== session) return false;
    this.detach();
    this.current_ = undefined;
    return true;
  }

  private detach(): void {
    for (const unsubscribe of this.detachers) unsubscribe();
    this.detachers = [];
  }
}
