/**
 * SMS commands of TS 27.005 in PDU mode: +CMGF, +CSMS, +CSCA, +CPMS, +CNMI, +CMGS, +CMGR,
 * +CMGL, +CMGD and +CNMA. Text mode can be selected and read back, but the simulator only
 * speaks PDU mode: the numeric send and list forms are syntax errors in text mode (plain
 * ERROR, as real modems answer `AT+CMGL=4` there).
 */
import { integerArgument } from './atCommandLine.js';
import {
  type CommandContext,
  type CommandDefinition,
  cmsError,
  ok,
  plainError,
  requiringSim,
} from './commandTypes.js';
import { MessageStatus, type StoredMessage } from './messageStorage.js';
import { typeOfAddress } from './modemIdentity.js';
import type { MessageIndications } from './modemProfile.js';
import { CmsCode } from './resultCodes.js';

/** The SIM ("SM") holds messages for reading, writing and receiving; "SR" only status reports. */
const STORAGE = 'SM';

/**
 * TS 23.040 §9.2.2.2: an SMS-SUBMIT TPDU is at most 164 octets: first octet, TP-MR, a 12-octet
 * TP-DA, TP-PID, TP-DCS, a 7-octet TP-VP, TP-UDL and 140 octets of user data.
 */
const MAX_SUBMIT_TPDU = 164;

function storageCounts(context: CommandContext, name = STORAGE): string {
  const memory = context.memories.get(name) ?? context.storage;
  return `${memory.used},${memory.capacity}`;
}

/** `"SM"` or `"SM","SR"`: what <mem1> may be (TS 27.005 §3.2.2); writing and receiving use SM. */
function readableMemories(context: CommandContext): string {
  return [...context.memories.keys()].map((name) => `"${name}"`).join(',');
}

/** TS 27.005 §3.4.2 PDU mode: +CMGL: <index>,<stat>,[<alpha>],<length> and the PDU on the next line. */
function listingLines(message: StoredMessage): string[] {
  return [`+CMGL: ${message.index},${message.status},,${message.tpduLength}`, message.hex];
}

const indicationFields: (keyof MessageIndications)[] = ['mode', 'mt', 'bm', 'ds', 'bfr'];
// TS 27.005 §3.4.1 values supported here; <bm> 0 because cell broadcast is not simulated.
const indicationLimits: Record<keyof MessageIndications, number> = { mode: 3, mt: 3, bm: 0, ds: 2, bfr: 1 };

export const messageCommands: Record<string, CommandDefinition> = {
  '+CMGF': {
    read: (context) => ok(`+CMGF: ${context.profile.pduMode ? 0 : 1}`),
    test: () => ok('+CMGF: (0-1)'),
    set(context, args) {
      const mode = integerArgument(args[0], 0, 1);
      if (mode === undefined) return cmsError(CmsCode.OperationNotSupported);
      context.profile.pduMode = mode === 0;
      return ok();
    },
  },
  '+CSMS': {
    read: (context) => ok(`+CSMS: ${context.profile.messageService},1,1,1`),
    test: () => ok('+CSMS: (0-1)'),
    set(context, args) {
      const service = integerArgument(args[0], 0, 1);
      if (service === undefined) return cmsError(CmsCode.OperationNotSupported);
      context.profile.messageService = service;
      return ok('+CSMS: 1,1,1');
    },
  },
  '+CSCA': requiringSim({
    read: (context) => {
      const { smsc } = context.identity;
      return ok(`+CSCA: "${smsc}",${typeOfAddress(smsc)}`);
    },
    test: () => ok(),
    set(context, args) {
      const number = args[0];
      if (number === undefined || !/^\+?\d{1,20}$/.test(number)) return cmsError(CmsCode.OperationNotAllowed);
      context.identity.smsc = number;
      return ok();
    },
  }),
  '+CPMS': requiringSim({
    read: (context) => {
      const mem1 = [...context.memories].find(([, memory]) => memory === context.storage)?.[0] ?? STORAGE;
      const counts = storageCounts(context);
      return ok(
        `+CPMS: "${mem1}",${storageCounts(context, mem1)},"${STORAGE}",${counts},"${STORAGE}",${counts}`,
      );
    },
    test: (context) => ok(`+CPMS: (${readableMemories(context)}),("${STORAGE}"),("${STORAGE}")`),
    set(context, args) {
      if (args.length === 0 || args.length > 3) return plainError();
      const [mem1 = STORAGE, ...others] = args.map((memory) => memory.toUpperCase());
      if (others.some((memory) => memory !== STORAGE) || !context.selectMemory(mem1)) {
        return cmsError(CmsCode.OperationNotSupported);
      }
      const counts = storageCounts(context);
      return ok(`+CPMS: ${storageCounts(context, mem1)},${counts},${counts}`);
    },
  }),
  '+CNMI': {
    read: (context) => {
      const indications = context.profile.indications;
      return ok(`+CNMI: ${indicationFields.map((field) => indications[field]).join(',')}`);
    },
    test: () => ok('+CNMI: (0-3),(0-3),(0),(0-2),(0-1)'),
    set(context, args) {
      if (args.length === 0 || args.length > indicationFields.length) return plainError();
      // Omitted trailing or empty fields keep their current value.
      const next = { ...context.profile.indications };
      for (const [position, field] of indicationFields.entries()) {
        const text = args[position];
        if (text === undefined || text === '') continue;
        const value = integerArgument(text, 0, indicationLimits[field]);
        if (value === undefined) return cmsError(CmsCode.OperationNotSupported);
        next[field] = value;
      }
      context.profile.indications = next;
      context.indicationSettingsChanged();
      return ok();
    },
  },
  '+CMGS': requiringSim({
    test: () => ok(),
    set(context, args) {
      if (!context.profile.pduMode) return plainError();
      const length = integerArgument(args[0], 1, MAX_SUBMIT_TPDU);
      if (length === undefined || args.length > 1) return cmsError(CmsCode.InvalidPduModeParameter);
      return { kind: 'prompt', tpduLength: length };
    },
  }),
  '+CMGR': requiringSim({
    test: () => ok(),
    set(context, args) {
      if (!context.profile.pduMode) return cmsError(CmsCode.OperationNotSupported);
      const index = integerArgument(args[0], 0, context.storage.capacity - 1);
      if (index === undefined) return cmsError(CmsCode.InvalidMemoryIndex);
      const message = context.storage.read(index);
      // An empty slot answers a bare OK, as most modems do (TS 27.005 leaves it open).
      // TS 27.005 §3.4.3 PDU mode: +CMGR: <stat>,[<alpha>],<length> and the PDU on the next line.
      return message ? ok(`+CMGR: ${message.status},,${message.tpduLength}`, message.hex) : ok();
    },
  }),
  '+CMGL': requiringSim({
    action: (context) => listMessages(context, MessageStatus.ReceivedUnread),
    test: (context) => (context.profile.pduMode ? ok('+CMGL: (0-4)') : plainError()),
    set(context, args) {
      const status = integerArgument(args[0], 0, MessageStatus.All);
      if (!context.profile.pduMode || status === undefined || args.length > 1) return plainError();
      return listMessages(context, status);
    },
  }),
  '+CMGD': requiringSim({
    test: (context) => ok(`+CMGD: (${context.storage.occupiedIndexes().join(',')}),(0-4)`),
    set(context, args) {
      const index = integerArgument(args[0], 0, context.storage.capacity - 1);
      const flag = args[1] === undefined ? 0 : integerArgument(args[1], 0, 4);
      if (flag === undefined) return cmsError(CmsCode.OperationNotSupported);
      // TS 27.005 §3.5.4: with <delflag> > 0 the <index> is ignored.
      if (index === undefined && flag === 0) return cmsError(CmsCode.InvalidMemoryIndex);
      context.storage.delete(index ?? 0, flag);
      return ok();
    },
  }),
  '+CNMA': requiringSim({
    action: (context) => (context.acknowledgeIndication() ? ok() : cmsError(CmsCode.NoCnmaExpected)),
    test: () => ok('+CNMA: (0-2)'),
  }),
};

function listMessages(context: CommandContext, status: number) {
  if (!context.profile.pduMode) return plainError();
  return ok(...context.storage.list(status).flatMap(listingLines));
}
