import { errorBodySchema } from '../../contract/schemas/errorBodySchema.js';
import type { RouteResponseSpec } from './defineRoute.js';

const errorMeanings: Record<number, string> = {
  400: 'Invalid request; the message names the field',
  401: 'Credentials missing or not accepted',
  403: 'The token lacks the required scope',
  404: 'Not found',
  409: 'A message with this id already exists',
  413: 'Request body too large',
  415: 'Request body is not application/json',
  429: 'Too many failed logins; see Retry-After',
  500: 'Internal error',
  503: 'No device can take the message now, or the queue is full',
};

/** Documented error responses for a route, each with the error body schema. */
export function errorResponses(...statuses: number[]): Record<number, RouteResponseSpec> {
  return Object.fromEntries(
    statuses.map((status) => [status, errorResponse(errorMeanings[status] ?? 'Error')]),
  );
}

/** The errors every authenticated route can answer. */
export const authErrors = [401, 403, 429, 500] as const;

/** One documented error response in the route's own words: `404: errorResponse('no such contact')`. */
export function errorResponse(description: string): RouteResponseSpec {
  return { description, schema: errorBodySchema };
}

/** 401 and 403 of a route that needs `scope`. */
export function accessErrors(scope: string): Record<401 | 403, RouteResponseSpec> {
  return {
    401: errorResponse('missing or wrong credentials'),
    403: errorResponse(`the token lacks ${scope}`),
  };
}
