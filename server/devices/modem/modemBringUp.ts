import type { Logger } from '../../logging/logger.js';
import type { PortRole } from '../transport/portLayouts.js';
import { readHealth, readRadioCapabilities, switchRadioOn } from './modemHealth.js';
import {
  chooseCharacterSet,
  configureMessaging,
  type MessagingSetup,
  optional,
  readModemIdentity,
  readSimIdentity,
  routeUnsolicitedCodes,
  type SetupContext,
  type SyncTiming,
  synchronise,
} from './modemSetup.js';
import type { ModemKnowledge } from './modemState.js';
import { RegistrationDomains } from './networkState.js';
import { quirksFor } from './quirks.js';

/**
 * The order of bringing a modem up, in three stretches around the two points where the driver
 * steps in (naming the device once its IMEI is known; unlocking the SIM). Each stretch writes
 * what it learns into `known` as soon as it has it (see `ModemKnowledge`). The steps themselves
 * are in `modemSetup.ts` and `modemHealth.ts`.
 */

/** In step with the modem, echo off, numeric errors on; then who it is and its quirks. */
export async function identifyModem(
  context: SetupContext,
  known: ModemKnowledge,
  sync: SyncTiming,
): Promise<void> {
  await synchronise(context, sync);
  await context.session.execute('ATE0', { timeoutMs: context.commandTimeoutMs });
  // Numeric +CME/+CMS codes (TS 27.007 §9.1): the driver decides on codes, not texts.
  await optional(context, 'AT+CMEE=1', () => true);
  known.identity = await readModemIdentity(context);
  known.quirks = quirksFor(known.identity.manufacturer, known.identity.model);
}

/**
 * The family's own set-up commands, its unsolicited codes routed to this port, the character
 * set, and the radio switched on: a module left in flight mode may not even show its SIM.
 */
export async function prepareLine(
  context: SetupContext,
  known: ModemKnowledge,
  portRole: PortRole | undefined,
  logger: Logger,
): Promise<void> {
  for (const command of known.quirks.extraInit) await optional(context, command, () => true);
  await routeUnsolicitedCodes(context, known.quirks, portRole, logger);
  known.charset = await chooseCharacterSet(context);
  const radioPower = await switchRadioOn(context, logger);
  if (radioPower) known.health.radioPower = radioPower;
}

/** The steps that need an unlocked SIM: its identity, messaging, indications and readings. */
export async function prepareMessaging(
  context: SetupContext,
  known: ModemKnowledge,
  logger: Logger,
): Promise<MessagingSetup> {
  known.sim = await readSimIdentity(context);
  const setup = await configureMessaging(context, known.quirks);
  known.setup = setup;
  // Long alphanumeric operator names in +COPS? (TS 27.007 §7.3 <format> 0).
  await optional(context, 'AT+COPS=3,0', () => true);
  // Registration changes as they happen, in all three domains (TS 27.007 §7.2, §10.1.20,
  // §10.1.22); a modem without one of them refuses it, which is fine.
  for (const domain of RegistrationDomains) await optional(context, `AT${domain}=1`, () => true);
  // The caller's number after each RING (TS 27.007 §7.6), so a missed call has a number.
  await optional(context, 'AT+CLIP=1', () => true);
  known.radio = await readRadioCapabilities(context);
  known.health = await readHealth(
    context,
    { cpinWithoutOk: known.quirks.cpinWithoutOk, charset: known.charset },
    logger,
  );
  return setup;
}
