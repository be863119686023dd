/** The Basic login the core generated on its very first start. */
export interface FirstRunLogin {
  username: string;
  password: string;
}

/**
 * Holds the generated login until the user says they saved it. The core stores only a hash and
 * a packaged app has no console, so the window is the only place it can ever be seen: it is
 * kept in memory here (never written, never logged), survives core restarts and window reloads
 * of this run, and is gone for good after `saved()`.
 */
export class FirstRunLoginHolder {
  private login?: FirstRunLogin;

  /** From each `ready`: only the run that generated the password carries one. */
  offer(ready: { username: string; generatedPassword?: string }): void {
    if (ready.generatedPassword === undefined) return;
    this.login = { username: ready.username, password: ready.generatedPassword };
  }

  get pending(): FirstRunLogin | undefined {
    return this.login ? { ...this.login } : undefined;
  }

  saved(): void {
    this.login = undefined;
  }
}
