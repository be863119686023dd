import { describeError, ErrorCode, isGatewayError } from '../server/errors/gatewayError.js';

/**
 * Why the core could not start, in the terms the desktop app offers a fix for. A bad option and
 * newer data wait for a person (`needsAPerson`); the app tries the others again by itself, as
 * their cause may go away (restartPolicy.ts).
 */
export type StartFailure =
  | { kind: 'port-in-use'; port: number; message: string; runningGatewayUrl?: string }
  | { kind: 'port-forbidden'; port: number; message: string }
  | { kind: 'data-dir-locked'; message: string }
  | { kind: 'bad-option'; message: string }
  /** The data was written by a newer version (a downgrade): only that version can open it. */
  | { kind: 'newer-data'; message: string }
  | { kind: 'other'; message: string };

export function classifyStartFailure(error: unknown, listen: { port: number }): StartFailure {
  const message = describeError(error);
  if (isGatewayError(error, ErrorCode.PortInUse)) return { kind: 'port-in-use', port: listen.port, message };
  if (isGatewayError(error, ErrorCode.PortForbidden))
    return { kind: 'port-forbidden', port: listen.port, message };
  if (isGatewayError(error, ErrorCode.DataDirLocked)) return { kind: 'data-dir-locked', message };
  if (isGatewayError(error, ErrorCode.ConfigInvalid)) return { kind: 'bad-option', message };
  if (isGatewayError(error, ErrorCode.StoreNewerThanBuild)) return { kind: 'newer-data', message };
  return { kind: 'other', message };
}

/**
 * Is the program on our port another Desktop SMS Gateway (a headless one, or one started by another
 * user)? Its public `GET /health` answers with the `releaseId` and `checks` of the health format
 * (docs/decisions.md#logs-and-health); a foreign server does not. Then the app offers to open it.
 */
export async function findRunningGateway(
  url: string,
  fetchImpl: typeof fetch = fetch,
  timeoutMs = 2_000,
): Promise<string | undefined> {
  try {
    const response = await fetchImpl(`${url}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    const body: unknown = await response.json();
    const looksLikeOurs =
      typeof body === 'object' &&
      body !== null &&
      'releaseId' in body &&
      'checks' in body &&
      'version' in body;
    return looksLikeOurs ? url : undefined;
  } catch {
    return undefined;
  }
}

export function isStartFailure(value: unknown): value is StartFailure {
  if (typeof value !== 'object' || value === null) return false;
  const { kind, message } = value as { kind?: unknown; message?: unknown };
  return (
    typeof message === 'string' &&
    ['port-in-use', 'port-forbidden', 'data-dir-locked', 'bad-option', 'newer-data', 'other'].includes(
      String(kind),
    )
  );
}

/** Causes the next attempt would meet unchanged: the app waits for a person. */
export function needsAPerson(failure: StartFailure): boolean {
  return failure.kind === 'bad-option' || failure.kind === 'newer-data';
}
