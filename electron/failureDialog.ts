import type { StartFailure } from './startFailure.js';

export type FailureAction =
  | { kind: 'use-port'; port: number }
  | { kind: 'open-running-gateway'; url: string }
  | { kind: 'retry' }
  /** Close the window; the automatic attempts go on and the tray shows their state. */
  | { kind: 'keep-trying' }
  | { kind: 'quit' };

export interface FailureDialog {
  title: string;
  message: string;
  detail: string;
  /** Buttons in order; the first is the default. */
  choices: { label: string; action: FailureAction }[];
  /** The button Escape (or closing the window) stands for: Keep trying while retries go on, else Quit. */
  cancelIndex: number;
}

export interface FailureContext {
  /** A free port to offer instead of a taken or forbidden one. */
  freePort?: number;
  /** The app starts the core again by itself (every cause but a bad option). */
  retrying: boolean;
  /** The core's log file and its last lines, which often say more than the cause. */
  log?: { file: string; lastLines: string[] };
}

const quit = { label: 'Quit', action: { kind: 'quit' } } as const;
const portSetting =
  'You can change the port later in Settings → This computer, or start the app with --listen <port>.';

/**
 * The one window shown when the core cannot start: it names the cause and offers the fix. While
 * the app keeps trying by itself, closing it keeps the attempts going.
 */
export function failureDialog(failure: StartFailure, context: FailureContext): FailureDialog {
  const cause = causeDialog(failure, context.freePort);
  const box = { ...cause, detail: [cause.detail, ...logNote(context.log)].join('\n\n') };
  if (!context.retrying) return { ...box, cancelIndex: box.choices.length - 1 };
  const keepTrying = { label: 'Keep trying', action: { kind: 'keep-trying' } } as const;
  const fixes = box.choices.slice(0, -1);
  return {
    ...box,
    detail: `${box.detail}\n\n${retryNote}`,
    choices: [...fixes, keepTrying, quit],
    cancelIndex: fixes.length,
  };
}

function logNote(log: FailureContext['log']): string[] {
  if (!log) return [];
  if (log.lastLines.length === 0) return [`The log file is ${log.file}.`];
  return [`The log file is ${log.file}. Its last lines:\n${log.lastLines.join('\n')}`];
}

const retryNote =
  'Meanwhile the app tries again by itself, with pauses growing up to 15 minutes; the tray icon shows the state and its menu can stop the attempts.';

function causeDialog(
  failure: StartFailure,
  freePort: number | undefined,
): Omit<FailureDialog, 'cancelIndex'> {
  const title = 'Desktop SMS Gateway could not start';
  const usePort =
    freePort === undefined
      ? []
      : [{ label: `Use port ${freePort}`, action: { kind: 'use-port', port: freePort } as const }];
  switch (failure.kind) {
    case 'port-in-use':
      if (failure.runningGatewayUrl) {
        return {
          title,
          message: `Another Desktop SMS Gateway is already running on port ${failure.port}.`,
          detail: `It may have been started from a terminal or by another user. Open it in your browser, or run this one on another port. ${portSetting}`,
          choices: [
            {
              label: 'Open the running gateway',
              action: { kind: 'open-running-gateway', url: failure.runningGatewayUrl },
            },
            ...usePort,
            quit,
          ],
        };
      }
      return {
        title,
        message: `Port ${failure.port} is already used by another program.`,
        detail: `The gateway needs a free port for its API and this window. ${portSetting}`,
        choices: [...usePort, { label: 'Try again', action: { kind: 'retry' } }, quit],
      };
    case 'port-forbidden':
      return {
        title,
        message: `The system does not allow the gateway to use port ${failure.port}.`,
        detail: `On Windows, Hyper-V, WSL or Docker reserve ranges of ports (see "netsh interface ipv4 show excludedportrange protocol=tcp"); elsewhere, ports below 1024 need administrator rights. ${portSetting}`,
        choices: [...usePort, quit],
      };
    case 'data-dir-locked':
      return {
        title,
        message: 'Another gateway is using the data folder.',
        detail: `${failure.message}\n\nStop the other gateway (a terminal window, or another user's session), then try again.`,
        choices: [{ label: 'Try again', action: { kind: 'retry' } }, quit],
      };
    case 'bad-option':
      return {
        title,
        message: 'A start-up option is not valid.',
        detail: `${failure.message}\n\nOptions come from the command line and the SMSGW_* environment variables. Correct it, then start the app again.`,
        choices: [quit],
      };
    case 'newer-data':
      return {
        title,
        message: 'This data was saved by a newer version of Desktop SMS Gateway.',
        detail: `${failure.message}\n\nThis version cannot read it, and leaves it untouched. Install the newer version again (or a later one) and the gateway starts with all its messages. To run this version anyway, start it with another data folder (--data-dir).`,
        choices: [quit],
      };
    case 'other':
      return {
        title,
        message: 'The gateway stopped while starting.',
        detail: failure.message,
        choices: [{ label: 'Try again', action: { kind: 'retry' } }, quit],
      };
  }
}

/** What the failure window needs from Electron (dialog, shell, app) and from the app. */
export interface FailureDialogHost {
  /** Electron's `dialog.showMessageBox` (docs/api/dialog.md): resolves with the button index. */
  showMessageBox(options: {
    type: 'error';
    title: string;
    message: string;
    detail: string;
    buttons: string[];
    defaultId: number;
    cancelId: number;
    noLink: boolean;
    /** Closes the box as if cancelled (docs/api/dialog.md, `signal`). */
    signal?: AbortSignal;
  }): Promise<{ response: number }>;
  nextFreePort(port: number): Promise<number | undefined>;
  saveListenPort(port: number): Promise<void>;
  restartCore(): Promise<void>;
  /** Electron's `shell.openExternal`: the user's browser. */
  openExternal(url: string): Promise<void>;
  quit(): void;
}

/**
 * Shows the failure window once and carries out the user's choice. `signal` closes it unanswered
 * (the core started meanwhile), which counts as Keep trying.
 */
export async function resolveStartFailure(
  failure: StartFailure,
  host: FailureDialogHost,
  options: Pick<FailureContext, 'retrying' | 'log'> & { signal?: AbortSignal },
): Promise<FailureAction> {
  const freePort =
    failure.kind === 'port-in-use' || failure.kind === 'port-forbidden'
      ? await host.nextFreePort(failure.port)
      : undefined;
  const dialog = failureDialog(failure, {
    retrying: options.retrying,
    ...(options.log ? { log: options.log } : {}),
    ...(freePort === undefined ? {} : { freePort }),
  });
  const { response } = await host.showMessageBox({
    type: 'error',
    title: dialog.title,
    message: dialog.message,
    detail: dialog.detail,
    buttons: dialog.choices.map((choice) => choice.label),
    defaultId: 0,
    cancelId: dialog.cancelIndex,
    noLink: true,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const action = dialog.choices[response]?.action ?? { kind: 'quit' };
  switch (action.kind) {
    case 'use-port':
      await host.saveListenPort(action.port);
      await host.restartCore();
      break;
    case 'retry':
      await host.restartCore();
      break;
    case 'open-running-gateway':
      // That gateway has its own window or browser tab; this app has nothing to serve.
      await host.openExternal(`${action.url}/ui/`);
      host.quit();
      break;
    case 'keep-trying':
      break;
    case 'quit':
      host.quit();
      break;
  }
  return action;
}

/**
 * Keeps to one failure window at a time, and one per cause while the attempts go on: a later
 * attempt that fails the same way only updates the tray, even after the window was dismissed
 * with Keep trying (an unattended PC would otherwise gather one every 15 minutes). A new cause
 * shows again. `close()` (the core started) dismisses the open one and forgets the cause.
 */
export class FailureWindow {
  private open?: AbortController;
  private shownCause?: StartFailure['kind'];

  constructor(
    private readonly present: (
      failure: StartFailure,
      options: Pick<FailureContext, 'retrying' | 'log'> & { signal: AbortSignal },
    ) => Promise<FailureAction>,
  ) {}

  get isOpen(): boolean {
    return this.open !== undefined;
  }

  show(failure: StartFailure, options: Pick<FailureContext, 'retrying' | 'log'>): void {
    if (this.open || failure.kind === this.shownCause) return;
    this.shownCause = failure.kind;
    const controller = new AbortController();
    this.open = controller;
    void this.present(failure, { ...options, signal: controller.signal }).finally(() => {
      if (this.open === controller) this.open = undefined;
    });
  }

  close(): void {
    this.open?.abort();
    this.open = undefined;
    this.shownCause = undefined;
  }
}
