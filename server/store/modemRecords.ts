/**
 * What the store keeps about modems beyond messages: missed calls, signal samples and counts per
 * modem (tables of the schema step "calls, signal_samples, device_event_counts").
 */

import type { EventCount } from './eventCounts.js';
import type { GroupCommit } from './sqlite/groupCommit.js';
import { QueryFilter } from './sqlite/queryFilter.js';
import type { Database, Statement } from './sqlite/sqlite.js';
import { StatementCache } from './sqlite/statementCache.js';

export interface CallRecord {
  id: string;
  deviceId: string;
  /** Absent when the caller withheld it. */
  number?: string;
  at: number;
  rejected: boolean;
}

export interface CallQuery {
  deviceId?: string;
  number?: string;
  from?: number;
  to?: number;
  limit: number;
  offset: number;
}

export interface SignalSample {
  at: number;
  rssi: number;
  dbm?: number;
}

interface CallRow {
  id: string;
  at: number;
  device_id: string;
  number: string | null;
  rejected: number;
}

export class SqliteModemRecords {
  private readonly queries: StatementCache;
  private readonly insertCall: Statement<CallRow>;
  private readonly insertSample: Statement<[string, number, number, number | null]>;
  private readonly selectSamples: Statement<
    [string, number],
    { at: number; rssi: number; dbm: number | null }
  >;
  private readonly pruneSamples: Statement<[number]>;
  private readonly selectCounts: Statement<[string, number], EventCount>;

  constructor(
    db: Database,
    private readonly commits: GroupCommit,
  ) {
    this.queries = new StatementCache(db);
    this.insertCall = db.prepare(
      'INSERT OR IGNORE INTO calls (id, at, device_id, number, rejected) VALUES (@id, @at, @device_id, @number, @rejected)',
    );
    this.insertSample = db.prepare(
      'INSERT OR REPLACE INTO signal_samples (device_id, at, rssi, dbm) VALUES (?, ?, ?, ?)',
    );
    this.selectSamples = db.prepare(
      'SELECT at, rssi, dbm FROM signal_samples WHERE device_id = ? AND at >= ? ORDER BY at',
    );
    this.pruneSamples = db.prepare('DELETE FROM signal_samples WHERE at < ?');
    this.selectCounts = db.prepare(
      `SELECT bucket AS at, event, count FROM device_event_counts
       WHERE device_id = ? AND bucket >= ? ORDER BY bucket`,
    );
  }

  /** `inCommit` runs synchronously inside the commit that stores the call (see InboxRepository.insert). */
  async addCall(call: CallRecord, inCommit?: () => void): Promise<void> {
    const row: CallRow = {
      id: call.id,
      at: call.at,
      device_id: call.deviceId,
      number: call.number ?? null,
      rejected: call.rejected ? 1 : 0,
    };
    const { value, durable } = this.commits.write(() => this.insertCall.run(row).changes);
    if (value > 0) inCommit?.();
    await durable;
  }

  /** Calls newest first, with the total that matches the filter. */
  listCalls(query: CallQuery): { total: number; items: CallRecord[] } {
    const filter = new QueryFilter()
      .when('device', query.deviceId, 'device_id = @device')
      .when('number', query.number, 'number = @number')
      .when('from', query.from, 'at >= @from')
      .when('to', query.to, 'at < @to');
    const total = (
      this.queries.get(`SELECT count(*) AS total FROM calls ${filter.where}`).get(filter.params) as {
        total: number;
      }
    ).total;
    const rows = this.queries
      .get(`SELECT * FROM calls ${filter.where} ORDER BY at DESC, rowid DESC LIMIT @limit OFFSET @offset`)
      .all({ ...filter.params, limit: query.limit, offset: query.offset }) as CallRow[];
    return { total, items: rows.map(callOfRow) };
  }

  /** Keeps one sample; samples older than `keepFrom` go (the history is the last 24 h). */
  addSignalSample(deviceId: string, sample: SignalSample, keepFrom: number): void {
    this.commits.write(() => {
      this.insertSample.run(deviceId, sample.at, sample.rssi, sample.dbm ?? null);
      this.pruneSamples.run(keepFrom);
    });
  }

  signalSince(deviceId: string, from: number): SignalSample[] {
    return this.selectSamples.all(deviceId, from).map((row) => {
      const sample: SignalSample = { at: row.at, rssi: row.rssi };
      if (row.dbm !== null) sample.dbm = row.dbm;
      return sample;
    });
  }

  /** One modem's counts from the quarter hour holding `from` on. */
  countsSince(deviceId: string, from: number): EventCount[] {
    return this.selectCounts.all(deviceId, from - (from % quarterHourMs));
  }
}

const quarterHourMs = 15 * 60_000;

function callOfRow(row: CallRow): CallRecord {
  const call: CallRecord = { id: row.id, deviceId: row.device_id, at: row.at, rejected: row.rejected === 1 };
  if (row.number !== null) call.number = row.number;
  return call;
}
