import type { Caller } from '../../contract/domain/caller.js';
import { audienceHears, type IncomingAudience, type IncomingRecord } from '../../contract/domain/incoming.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { InboxQuery, InboxRepository, Page } from '../../store/repositories.js';
import type { AppDirectory } from '../auth/appDirectory.js';

/**
 * The received messages as a caller may read them: an app those its incoming rule gives it
 * (auth/appDirectory.ts); people and the gateway every one. Every way in reads the inbox here.
 */
export interface InboxReads {
  list(query: Omit<InboxQuery, 'audience'>, caller: Caller): Promise<Page<IncomingRecord>>;
  /** 404 naming `id` for a message the caller does not see, as for one that does not exist. */
  get(id: string, caller: Caller): IncomingRecord;
}

export function createInboxReads(deps: {
  records: Pick<InboxRepository, 'get' | 'list'>;
  apps: Pick<AppDirectory, 'incomingAudience'>;
}): InboxReads {
  const audienceOf = (caller: Caller): IncomingAudience =>
    caller.kind === 'app' ? deps.apps.incomingAudience(caller.appId) : { kind: 'everything' };
  return {
    list: (query, caller) => deps.records.list({ ...query, audience: audienceOf(caller) }),
    get(id, caller) {
      const record = deps.records.get(id);
      if (!record || !audienceHears(audienceOf(caller), record)) {
        throw new GatewayError(ErrorCode.NotFound, `received message ${id} not found`, { field: 'id' });
      }
      return record;
    },
  };
}
