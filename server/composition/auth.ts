import { auditRecorder } from '../doors/http/auditRecorder.js';
import type { RouteChange } from '../doors/http/defineRoute.js';
import { describeError } from '../errors/gatewayError.js';
import { type AccessControl, createAccessControl } from '../services/auth/accessControl.js';
import { type AppDirectory, type AppDocumentData, openAppDirectory } from '../services/auth/appDirectory.js';
import { type AppQuotas, createAppQuotas } from '../services/auth/appQuotas.js';
import { createAttemptPacer } from '../services/auth/attemptPacer.js';
import {
  type BasicCredentials,
  type CredentialsDocumentData,
  openBasicCredentials,
  type ScryptCost,
} from '../services/auth/credentials.js';
import { createHashingGate } from '../services/auth/hashingGate.js';
import { createLoginChange, type LoginChange } from '../services/auth/loginChange.js';
import { createLoginThrottle, type LoginThrottleOptions } from '../services/auth/loginThrottle.js';
import { openSmppLogins, type SmppLoginDocumentData, type SmppLogins } from '../services/auth/smppLogins.js';
import {
  openStaffDirectory,
  type StaffDirectory,
  type StaffDocumentData,
} from '../services/auth/staffDirectory.js';
import { tokenDocumentMigrations } from '../services/auth/tokenDocument.js';
import {
  openTokenService,
  type TokenDocumentData,
  type TokenService,
} from '../services/auth/tokenService.js';
import { type AuditTrail, SqliteAuditTrail } from '../store/auditTrail.js';
import { SqliteUsageCounts } from '../store/usageCounts.js';
import type { CompositionContext } from './context.js';

export interface GatewayAuth {
  credentials: BasicCredentials;
  tokens: TokenService;
  accessControl: AccessControl;
  login: LoginChange;
  /** The people who sign in, the owner's login first. */
  staff: StaffDirectory;
  /** The apps with logins of their own, and their quotas. */
  apps: AppDirectory;
  /** The people's and apps' logins that fit an SMPP bind. */
  smppLogins: SmppLogins;
  quotas: AppQuotas;
  usage: SqliteUsageCounts;
  audit: AuditTrail;
  /** Records each change made through the API in `audit`, naming who made it. */
  recordChange: (change: RouteChange) => void;
}

/**
 * Who may call the API. The Basic login (given by options, stored, or generated on a
 * first run) is the owner's; the staff users an owner added; the JWT tokens, the access control
 * with its login throttle, changing the login, and the audit trail of who changed what.
 */
export async function composeAuth(
  context: CompositionContext,
  deps: {
    /** `--username`/`--password`; absent: the stored (or a generated) login. */
    login: { username?: string; password?: string };
    throttle: Pick<LoginThrottleOptions, 'maxFailures' | 'windowMs'> | undefined;
    /** Tests hash with cheap parameters; default `defaultScryptCost`. */
    scryptCost?: ScryptCost;
  },
): Promise<GatewayAuth> {
  const { storage, clock, logger } = context;
  // Every password check shares one gate, whoever's login it is.
  const hashing = createHashingGate();
  const credentials = await openBasicCredentials({
    document: await storage.openDocument<CredentialsDocumentData>('credentials', {}),
    username: deps.login.username,
    password: deps.login.password,
    scryptCost: deps.scryptCost,
    hashing,
  });
  const staff = openStaffDirectory({
    document: await storage.openDocument<StaffDocumentData>('staff', {}),
    owner: credentials,
    hashing,
    clock,
    scryptCost: deps.scryptCost,
    nameTaken: (name) => apps.login(name) !== undefined || smppLogins.has(name),
  });
  const apps = openAppDirectory({
    document: await storage.openDocument<AppDocumentData>('apps', {}),
    hashing,
    clock,
    scryptCost: deps.scryptCost,
    nameTaken: (name) => staff.login(name) !== undefined || smppLogins.has(name),
  });
  const identityOf = (holder: string) => staff.identity(holder) ?? apps.identity(holder);
  const smppLogins = openSmppLogins({
    document: await storage.openDocument<SmppLoginDocumentData>('smpp-logins', {}),
    hashing,
    clock,
    scryptCost: deps.scryptCost,
    identity: identityOf,
    nameTaken: (name) => (staff.login(name) ?? apps.login(name))?.identity,
  });
  // A person or app removed takes its SMPP login along.
  const forgetRemoved = (holder: string) => {
    if (identityOf(holder) !== undefined) return;
    smppLogins.remove(holder).catch((error: unknown) => {
      logger.warn('could not remove the SMPP login of a removed person or app', {
        holder,
        error: describeError(error),
      });
    });
  };
  staff.onChange(forgetRemoved);
  apps.onChange(forgetRemoved);
  const tokens = await openTokenService({
    document: await storage.openDocument<TokenDocumentData>('tokens', {}, tokenDocumentMigrations),
    clock,
    logger,
  });
  const accessControl = createAccessControl({
    credentials,
    staff,
    apps,
    smppLogins,
    tokens,
    throttle: createLoginThrottle({ ...deps.throttle, clock }),
    pacer: createAttemptPacer({ clock }),
    clock,
    logger,
  });
  const audit = new SqliteAuditTrail(storage.sqlite.db, storage.sqlite.commits);
  return {
    credentials,
    tokens,
    accessControl,
    login: createLoginChange({
      credentials,
      staff,
      accessControl,
      tokens,
      nameTaken: (name) =>
        staff.login(name) !== undefined || apps.login(name) !== undefined || smppLogins.has(name),
    }),
    staff,
    apps,
    smppLogins,
    quotas: createAppQuotas({
      apps,
      clock,
      countSince: (appId, since) => storage.messages.recipientsOfAppSince(appId, since),
    }),
    audit,
    usage: new SqliteUsageCounts(storage.sqlite.db),
    recordChange: auditRecorder({ trail: audit, clock, logger }),
  };
}
