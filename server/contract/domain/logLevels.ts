/**
 * The log levels, lowest first: the logger filters by them, GET /logs and its query name them,
 * and the UI's log view ranks by them. Pure (no Node API), so the UI bundles this very list.
 */
export const LogLevels = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
export type LogLevel = (typeof LogLevels)[number];

/** Higher is more severe; a logger set to a level passes that level and every one above it. */
export function levelRank(level: LogLevel): number {
  return LogLevels.indexOf(level);
}

export function parseLogLevel(value: string): LogLevel | undefined {
  const upper = value.toUpperCase();
  return (LogLevels as readonly string[]).includes(upper) ? (upper as LogLevel) : undefined;
}
