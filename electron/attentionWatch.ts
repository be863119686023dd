import type { CoreHealth } from './coreHealth.js';
import type { Notice } from './coreStatus.js';

/** Checks whose failure is news to a person: each is notified once per occurrence. */
const notified = new Set([
  'modems:connected',
  'sim:ready',
  'messages:queue',
  'messages:failed',
  'queue:stuck',
  'reports:overdue',
  'webhooks:failed',
  'storage:writable',
  'plans:near-cap',
  'plans:cap-reached',
]);

const titles: Record<string, string> = {
  'modems:connected': 'A modem is offline',
  'sim:ready': 'A SIM card waits for its PIN',
  'messages:queue': 'Many messages are waiting',
  'messages:failed': 'Messages are failing',
  'queue:stuck': 'Messages are stuck in the queue',
  'reports:overdue': 'Delivery reports stopped',
  'webhooks:failed': 'Webhook deliveries are failing',
  'storage:writable': 'The gateway cannot write its data',
  'plans:near-cap': "A SIM is near its plan's cap",
  'plans:cap-reached': "A SIM reached its plan's cap",
};

export interface Attention {
  /** One line per current problem, for the tray. */
  alerts: string[];
  /** Notifications for the problems that are new since the last update. */
  notices: Notice[];
}

/**
 * Turns the core's health into what a person sees: the tray lists every current problem, and a
 * notification tells of each new one (a modem going offline, failing webhooks, reports that
 * stopped…) once, not again until it cleared and came back. A queue counts as stuck when
 * messages wait and none has left for `stuckAfterMs`, which the core's checks cannot see.
 */
export class AttentionWatch {
  private active = new Set<string>();
  private latest?: CoreHealth;
  private lastProgressAt: number;
  private lastPending = 0;

  constructor(
    private readonly now: () => number,
    private readonly stuckAfterMs = 15 * 60_000,
  ) {
    this.lastProgressAt = now();
  }

  /** A report from the core; undefined once no core runs (the core's own state says so). */
  update(health: CoreHealth | undefined): Attention {
    if (health && (health.pending < this.lastPending || health.pending === 0))
      this.lastProgressAt = this.now();
    this.lastPending = health?.pending ?? 0;
    this.latest = health;
    return this.evaluate();
  }

  /** Called every minute: a queue becomes stuck by time passing, not by a new report. */
  tick(): Attention {
    return this.evaluate();
  }

  private evaluate(): Attention {
    const health = this.latest;
    if (!health) {
      this.active.clear();
      return { alerts: [], notices: [] };
    }
    const problems = [...health.problems];
    const waitedMs = this.now() - this.lastProgressAt;
    if (health.pending > 0 && waitedMs >= this.stuckAfterMs) {
      problems.push({
        check: 'queue:stuck',
        status: 'warn',
        description: `${health.pending} messages waiting, none sent for ${Math.round(waitedMs / 60_000)} minutes`,
      });
    }
    const current = new Set(problems.map((problem) => problem.check));
    const notices = problems
      .filter((problem) => notified.has(problem.check) && !this.active.has(problem.check))
      .map((problem) => ({
        title: titles[problem.check] ?? 'The SMS gateway needs attention',
        body: problem.description,
      }));
    this.active = current;
    return { alerts: problems.map((problem) => problem.description), notices };
  }
}
