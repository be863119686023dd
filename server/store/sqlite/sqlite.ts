import { existsSync } from 'node:fs';
import { backup, DatabaseSync, enhance } from '@photostructure/sqlite';

/**
 * The one place that knows which SQLite binding the gateway uses.
 *
 * `@photostructure/sqlite` is Node's own `node:sqlite` built as a Node-API addon, with prebuilt
 * binaries inside its npm package: the same file loads under every Node (22, 24) and inside
 * Electron, with no rebuild per ABI on a user's machine and nothing downloaded at install.
 * `enhance()` adds the better-sqlite3-style `pragma()` and `transaction()` the store is written
 * against. Everything else imports the types below, never the binding.
 */

type Bind<Params> = Params extends readonly unknown[] ? Params : [Params];

/** Numbers: the gateway never asks a statement that writes for bigints. */
export interface RunResult {
  changes: number;
}

/** A prepared statement, typed by what it binds and the row it yields. */
export interface Statement<Params extends readonly unknown[] | object = unknown[], Row = unknown> {
  run(...params: Bind<Params>): RunResult;
  get(...params: Bind<Params>): Row | undefined;
  all(...params: Bind<Params>): Row[];
  iterate(...params: Bind<Params>): IterableIterator<Row>;
  /** Rows come back as arrays of their columns' values, in the order the query selects them. */
  setReturnArrays(enabled: boolean): void;
}

export interface UserFunctionOptions {
  deterministic?: boolean;
}

export interface Database {
  exec(sql: string): void;
  prepare<Params extends readonly unknown[] | object = unknown[], Row = unknown>(
    sql: string,
  ): Statement<Params, Row>;
  /** `pragma('user_version', { simple: true })` answers the value; otherwise the rows. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  /** Wraps `fn` so that it runs between BEGIN and COMMIT (a savepoint when nested). */
  transaction<F extends (...args: never[]) => unknown>(fn: F): F;
  function(name: string, options: UserFunctionOptions, fn: (...args: never[]) => unknown): void;
  function(name: string, fn: (...args: never[]) => unknown): void;
  readonly isTransaction: boolean;
  close(): void;
}

export interface OpenOptions {
  readOnly?: boolean;
  /** Fail instead of creating an empty database (a thread or a backup opening the gateway's). */
  mustExist?: boolean;
}

export function openSqlite(path: string, options: OpenOptions = {}): Database {
  // SQLite would create a missing file for a read-write connection; a thread that opened a fresh
  // empty database beside the gateway's would read and checkpoint nothing, silently.
  if (options.mustExist && !existsSync(path)) {
    throw Object.assign(new Error(`unable to open database file ${path}: it does not exist`), {
      code: 'SQLITE_CANTOPEN',
    });
  }
  // Unknown named parameters are ignored: one row object binds the several statements that
  // write or read parts of it.
  const db = new DatabaseSync(path, {
    readOnly: options.readOnly ?? false,
    allowUnknownNamedParameters: true,
  });
  // A 16 MB page cache, which the benchmarks' figures assume; this binding's build would keep
  // SQLite's default of 2 MB.
  db.exec('PRAGMA cache_size = -16000');
  return enhance(db) as unknown as Database;
}

/** SQLite's extended result code SQLITE_CONSTRAINT_UNIQUE. */
const constraintUnique = 2067;

/** True when `error` is SQLite refusing a row that repeats a UNIQUE column's value. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { errcode?: unknown } | null)?.errcode === constraintUnique;
}

/** SQLite's result name for a failure ("SQLITE_BUSY", "SQLITE_CONSTRAINT", …), when it has one. */
export function sqliteCodeOf(error: unknown): string | undefined {
  const name = (error as { sqliteCodeName?: unknown; code?: unknown } | null)?.sqliteCodeName;
  if (typeof name === 'string') return name;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/**
 * Copies `source` to `target` with SQLite's online backup, a batch of pages per step, without
 * holding the event loop between steps; answers the number of pages copied.
 */
export async function backupTo(source: Database, target: string): Promise<number> {
  return backup(source as unknown as InstanceType<typeof DatabaseSync>, target);
}
