import type Koa from 'koa';
import { ErrorCode, GatewayError, retryAfterSeconds } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';

/**
 * The first middleware: every failure becomes a status and the upstream error body
 * `{"message": "..."}`, with our `field` beside it when the error names the request field or
 * setting at fault. Only GatewayErrors speak to the client; anything else is a bug, logged with
 * its stack and answered with a generic 500.
 */
const statusByCode: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.ValidationFailed]: 400,
  [ErrorCode.InvalidState]: 400,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.QueueFull]: 503,
  [ErrorCode.NoDeviceAvailable]: 503,
  [ErrorCode.Unauthorized]: 401,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.TooManyAttempts]: 429,
  [ErrorCode.TooManyStreams]: 429,
  [ErrorCode.QuotaExceeded]: 429,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.UnsupportedMediaType]: 415,
  [ErrorCode.ModemUnavailable]: 503,
  [ErrorCode.UssdTimeout]: 504,
  [ErrorCode.UssdRefused]: 502,
  [ErrorCode.OperatorDataMissing]: 503,
};

/** Both schemes we accept, so a client learns it may use either (RFC 9110 §11.6.1). */
export const authenticateChallenge = 'Basic realm="SMS Gateway", Bearer realm="SMS Gateway"';

export function errorMapper(logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      const status = ctx.status;
      if ((ctx.body === undefined || ctx.body === null) && (status === 404 || status === 405)) {
        ctx.body = {
          message:
            status === 404
              ? `no route ${ctx.method} ${ctx.path}`
              : `method ${ctx.method} is not allowed on ${ctx.path}`,
        };
        // Setting a body resets the status to 200 in Koa: restore it.
        ctx.status = status;
      }
    } catch (error) {
      const { status, message, field, headers } = describe(error);
      // A 500 is a bug or a broken dependency (storage, modem): the client gets a generic text,
      // the log gets everything. 503s (queue full, no device) are expected and not logged here.
      if (status === 500) {
        logger.error('request failed', {
          method: ctx.method,
          path: ctx.path,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      }
      ctx.status = status;
      for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
      ctx.body = field === undefined ? { message } : { message, field };
    }
  };
}

interface Answer {
  status: number;
  message: string;
  field?: string;
  headers: Record<string, string>;
}

function describe(error: unknown): Answer {
  if (error instanceof GatewayError) {
    // A named device that does not exist is a bad request, not an unavailable service.
    const status =
      error.code === ErrorCode.NoDeviceAvailable && error.field === 'deviceId'
        ? 400
        : (statusByCode[error.code] ?? 500);
    const headers: Record<string, string> = {};
    if (status === 401) headers['WWW-Authenticate'] = authenticateChallenge;
    if (status === 429) headers['Retry-After'] = String(retryAfterSeconds(error));
    if (status === 500) return { status, message: 'internal server error', headers };
    return { status, message: error.message, ...(error.field ? { field: error.field } : {}), headers };
  }
  return { status: 500, message: 'internal server error', headers: {} };
}

/**
 * The body parser's failures (co-body, raw-body: errors carrying `status`/`type`) as the
 * GatewayErrors clients see; used as koa-bodyparser's `onerror`.
 */
export function bodyParseError(error: unknown): GatewayError {
  const { status, type } = (typeof error === 'object' && error !== null ? error : {}) as {
    status?: unknown;
    type?: unknown;
  };
  if (status === 413 || type === 'entity.too.large') {
    return new GatewayError(ErrorCode.PayloadTooLarge, 'body: larger than the request size limit', {
      field: 'body',
      cause: error,
    });
  }
  if (status === 415 || type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return new GatewayError(ErrorCode.UnsupportedMediaType, 'body: unsupported encoding or charset', {
      field: 'body',
      cause: error,
    });
  }
  return new GatewayError(
    ErrorCode.ValidationFailed,
    'body: not valid JSON (an object or array is expected)',
    {
      field: 'body',
      cause: error,
    },
  );
}
