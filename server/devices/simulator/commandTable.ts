/** Every command the simulator answers, by upper-case name (`E`, `&F`, `+CMGS`, `^ICCID`). */
import type { CommandDefinition } from './commandTypes.js';
import { generalCommands } from './generalCommands.js';
import { messageCommands } from './messageCommands.js';
import { networkCommands } from './networkCommands.js';
import { relayLinkCommands } from './relayLinkCommands.js';
import { telephonyCommands } from './telephonyCommands.js';
import { urcRoutingCommands } from './urcRoutingCommands.js';

/** `moreMessagesToSend` false: a modem without `+CMMS`, which answers ERROR to it. */
export function buildCommandTable(moreMessagesToSend = true): ReadonlyMap<string, CommandDefinition> {
  return new Map(
    Object.entries({
      ...generalCommands,
      ...networkCommands,
      ...messageCommands,
      ...(moreMessagesToSend ? relayLinkCommands : {}),
      ...urcRoutingCommands,
      ...telephonyCommands,
    }),
  );
}

/** AT+CLAC lists commands as they are typed (TS 27.007 §8.37): "AT" and the name. */
export function commandListing(table: ReadonlyMap<string, CommandDefinition>): string[] {
  return [...table.keys()].map((name) => `AT${name}`);
}
