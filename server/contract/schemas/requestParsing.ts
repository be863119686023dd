import type { z } from 'zod';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

/**
 * Turns a zod failure into the one error the API answers with: 400 and
 * `{"message": "<field path>: <what is wrong>"}`, naming the field first so a client can act.
 */
export function validationError(error: z.ZodError, where: string): GatewayError {
  const problems = error.issues.flatMap((issue) =>
    // An unknown key is named itself, not its parent: "messages.limit_perod: is not a known field".
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ field: fieldPath([...issue.path, key]), message: 'is not a known field' }))
      : [{ field: fieldPath(issue.path) || where, message: issue.message }],
  );
  const message = problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
  return new GatewayError(ErrorCode.ValidationFailed, message, { field: problems[0]?.field ?? where });
}

/** `phoneNumbers[0]`, `dataMessage.port`, `messages.limit_period`… */
export function fieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text ? `.${String(segment)}` : String(segment);
  }
  return text;
}

/**
 * Parses with zod and throws `ValidationFailed` naming the field. A missing required field reads
 * "is required" rather than zod's "expected string, received undefined".
 */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const result = schema.safeParse(value, {
    error: (issue) =>
      issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : undefined,
  });
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}
