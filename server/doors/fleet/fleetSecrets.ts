import type { z } from 'zod';
import type { fleetStatusSchema } from '../../contract/schemas/fleetStatusSchema.js';
import type { FleetStatus } from './fleetMode.js';

export type FleetStatusView = z.output<typeof fleetStatusSchema>;

/**
 * What the gateway status shows of fleet mode, and to whom. The status is read with
 * `messages:list`, but the login and the password of the user the server created open that
 * server's API for the whole fleet: they are shown only to a reader who may change the fleet
 * settings, and the password only once — whoever reveals it is told to note it, so a status
 * read later, by anyone, no longer carries it.
 */
export class FleetSecrets {
  /** The created password already handed out; a later registration may create another. */
  private revealed?: string;

  constructor(private readonly status: () => FleetStatus) {}

  view(maySeeSecrets: boolean): FleetStatusView {
    const status = this.status();
    if (!status.enabled) return status;
    const { login, createdUserPassword, ...shown } = status;
    if (!maySeeSecrets) return shown;
    return {
      ...shown,
      ...(login === undefined ? {} : { login }),
      ...(this.waiting(createdUserPassword) ? { createdUserPasswordWaiting: true } : {}),
    };
  }

  /** The created user's login and password the first time it is asked for, then undefined. */
  revealCreatedUser(): { login: string; password: string } | undefined {
    const status = this.status();
    if (!status.enabled || status.login === undefined) return undefined;
    const password = status.createdUserPassword;
    if (password === undefined || !this.waiting(password)) return undefined;
    this.revealed = password;
    return { login: status.login, password };
  }

  private waiting(password: string | undefined): boolean {
    return password !== undefined && password !== this.revealed;
  }
}
