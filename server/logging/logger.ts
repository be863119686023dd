import { type LogLevel, levelRank } from '../contract/domain/logLevels.js';

/**
 * The one logger. Each layer takes a child with its module name ("at:/dev/ttyUSB0", "modem:abc",
 * "http"…). Entries go to every sink (console, the log store behind GET /logs, the live UI
 * stream). Each module logs at its own level when one is set for it or a parent
 * (`moduleLevels`), else at `level`. Cheap when off: `isEnabled` lets hot paths (raw AT
 * traffic) skip building strings.
 */
export type LogContext = Record<string, unknown>;

export interface LogRecord {
  priority: LogLevel;
  module: string;
  message: string;
  context?: LogContext;
  createdAt: number;
}

export type LogSink = (record: LogRecord) => void;

export interface Logger {
  readonly module: string;
  isEnabled(level: LogLevel): boolean;
  debug(message: string, context?: LogContext): void;
  info(message: string, context?: LogContext): void;
  warn(message: string, context?: LogContext): void;
  error(message: string, context?: LogContext): void;
  child(module: string): Logger;
}

export interface LoggerOptions {
  /** Level of every module without one of its own. */
  level: LogLevel;
  /**
   * Levels by module name; a name covers its children ("at" covers "at:/dev/ttyUSB0"), and the
   * longest matching name wins.
   */
  moduleLevels?: Readonly<Record<string, LogLevel>>;
  sinks: LogSink[];
  now?: () => number;
}

/** The level `module` logs at: that of the longest name in `moduleLevels` covering it, else `level`. */
export function levelOfModule(
  options: Pick<LoggerOptions, 'level' | 'moduleLevels'>,
  module: string,
): LogLevel {
  let match: string | undefined;
  for (const name of Object.keys(options.moduleLevels ?? {})) {
    const covers = module === name || module.startsWith(`${name}:`);
    if (covers && (match === undefined || name.length > match.length)) match = name;
  }
  return (match === undefined ? undefined : options.moduleLevels?.[match]) ?? options.level;
}

export function createLogger(options: LoggerOptions, module = 'gateway'): Logger {
  const now = options.now ?? Date.now;
  // Worked out once per logger: each module's logger is made once, its calls are many.
  const minimum = levelRank(levelOfModule(options, module));
  const isEnabled = (level: LogLevel) => levelRank(level) >= minimum;
  const emit = (priority: LogLevel, message: string, context?: LogContext) => {
    if (!isEnabled(priority)) return;
    const record: LogRecord = { priority, module, message, createdAt: now() };
    if (context && Object.keys(context).length > 0) record.context = context;
    for (const sink of options.sinks) sink(record);
  };
  return {
    module,
    isEnabled,
    debug: (message, context) => emit('DEBUG', message, context),
    info: (message, context) => emit('INFO', message, context),
    warn: (message, context) => emit('WARN', message, context),
    error: (message, context) => emit('ERROR', message, context),
    child: (name) => createLogger(options, `${module === 'gateway' ? '' : `${module}:`}${name}`),
  };
}

/** A logger that drops everything: for unit tests that do not look at logs. */
export const silentLogger: Logger = createLogger({ level: 'ERROR', sinks: [] });

/** Human-readable single line per record, for a terminal or a log file. */
export function consoleSink(stream: { write(text: string): unknown } = process.stderr): LogSink {
  return (record) => {
    const time = new Date(record.createdAt).toISOString();
    const context = record.context ? ` ${safeJson(record.context)}` : '';
    stream.write(`${time} ${record.priority.padEnd(5)} [${record.module}] ${record.message}${context}\n`);
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, inner) => (inner instanceof Error ? inner.message : inner));
  } catch {
    return '[unserialisable context]';
  }
}
