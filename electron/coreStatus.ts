import type { CoreState } from './coreSupervisor.js';

/** One line on what the gateway is doing, for the tray's tooltip and the first line of its menu. */
export function coreStatusLine(state: CoreState, formatTime: (epochMs: number) => string): string {
  switch (state.kind) {
    case 'starting':
      return state.upgrade
        ? `Gateway starting: updating its database (schema ${state.upgrade.from} → ${state.upgrade.to})…`
        : 'Gateway starting…';
    case 'running':
      return 'Gateway running';
    case 'waiting-to-retry':
      return `Gateway stopped: trying again at ${formatTime(state.retryAt)} (attempt ${state.attempt + 1})`;
    case 'stopped':
      return state.reason === 'quit' ? 'Gateway stopped' : 'Gateway stopped: not retrying';
  }
}

/** The gateway cannot send or receive: the tray shows its alert icon. */
export function isCoreDown(state: CoreState): boolean {
  return state.kind === 'waiting-to-retry' || (state.kind === 'stopped' && state.reason !== 'quit');
}

export interface Notice {
  title: string;
  body: string;
}

/**
 * The desktop notifications for the core's states: one when it goes down (not one per failed
 * attempt), one when it runs again after that, and one when it waits for a person.
 */
export class CoreNotices {
  private down = false;

  /** `logFile`: the core's log, named in every notice about a failure. */
  constructor(private readonly logFile?: string) {}

  private withLog(body: string): string {
    return this.logFile ? `${body} Log: ${this.logFile}` : body;
  }

  noticeFor(state: CoreState): Notice | undefined {
    if (state.kind === 'starting' && state.upgrade) {
      return {
        title: 'Updating the gateway’s database',
        body: `This version brings the stored messages up to date; with a long history it takes a few minutes. A copy from before is kept in ${state.upgrade.backup}.`,
      };
    }
    if (state.kind === 'running') {
      const wasDown = this.down;
      this.down = false;
      return wasDown
        ? { title: 'SMS gateway running again', body: 'Messages are sent and received again.' }
        : undefined;
    }
    if (state.kind === 'stopped' && state.reason === 'needs-a-person') {
      this.down = true;
      return {
        title: 'SMS gateway stopped',
        body: this.withLog(state.detail ?? 'It needs a change before it can start.'),
      };
    }
    if (state.kind !== 'waiting-to-retry' || this.down) return undefined;
    this.down = true;
    return state.wasReady
      ? {
          title: 'SMS gateway stopped',
          body: this.withLog(
            `${state.reason} It is started again automatically; the tray menu can stop the retries.`,
          ),
        }
      : {
          title: 'SMS gateway could not start',
          body: this.withLog(`${state.reason} The app keeps trying, with pauses growing up to 15 minutes.`),
        };
  }
}

/**
 * The notification for a received SMS: the sender always, the text only when the user turned
 * previews on (a notification shows on the lock screen and to anyone passing by).
 */
export function incomingNotice(sender: string, preview: string, showPreview: boolean): Notice {
  return { title: `SMS from ${sender}`, body: showPreview ? preview : 'New message' };
}
