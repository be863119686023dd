import { z } from 'zod';
import { toIsoWithOffset } from '../../../clock/isoTime.js';
import {
  balanceViewSchema,
  missedCallViewSchema,
  modemFiguresViewSchema,
  modemOperationsSettingsSchema,
  modemOperationsViewSchema,
  ussdCodePattern,
  ussdExchangeViewSchema,
} from '../../../contract/schemas/modemOperationsSchemas.js';
import { pageQuery, queryInteger, timeRangeQuery } from '../../../contract/schemas/primitives.js';
import { type DeviceDirectory, requireDevice } from '../../../devices/pool/deviceDirectory.js';
import type { BalanceWatch } from '../../../services/operations/balanceWatch.js';
import type {
  BalanceReading,
  ModemOperationsSettingsStore,
} from '../../../services/operations/modemOperationsSettings.js';
import type { UssdExchange, UssdSessions } from '../../../services/operations/ussdSessions.js';
import type { DailyCount } from '../../../services/stats/dailyStats.js';
import type { CallQuery, CallRecord, SignalSample } from '../../../store/modemRecords.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

/**
 * Modem operations under /gateway/v1/ (docs/modems.md "Modem operations"): USSD requests and sessions,
 * the per-modem balance check and call settings, missed calls, and per-modem figures.
 */
export interface ModemOperationsRouteDependencies {
  devices: DeviceDirectory;
  sessions: UssdSessions;
  settings: ModemOperationsSettingsStore;
  balance: BalanceWatch;
  listCalls(query: CallQuery): { total: number; items: CallRecord[] };
  dailyStats(deviceId: string, days: number): DailyCount[];
  signalSince(deviceId: string, from: number): SignalSample[];
  now(): number;
}

const tag = 'Gateway extensions';
const dayMs = 24 * 60 * 60_000;

function exchangeView(exchange: UssdExchange): z.output<typeof ussdExchangeViewSchema> {
  return { ...exchange, at: toIsoWithOffset(exchange.at) };
}

export function balanceView(reading: BalanceReading): z.output<typeof balanceViewSchema> {
  return { ...reading, at: toIsoWithOffset(reading.at) };
}

function callView(call: CallRecord): z.output<typeof missedCallViewSchema> {
  const view: z.output<typeof missedCallViewSchema> = {
    id: call.id,
    deviceId: call.deviceId,
    calledAt: toIsoWithOffset(call.at),
    rejected: call.rejected,
  };
  if (call.number !== undefined) view.phoneNumber = call.number;
  return view;
}

export function registerModemOperationsRoutes(api: ApiBuilder, deps: ModemOperationsRouteDependencies): void {
  api.route({
    method: 'post',
    path: '/gateway/v1/devices/:id/ussd',
    summary: "Send a USSD code (or the reply in an open session) and return the network's answer",
    tag,
    access: { scope: 'settings:write' },
    body: z
      .object({
        code: z.string().min(1).max(160),
        simNumber: z.number().int().min(1).max(1).optional(),
        /** Continues the session a previous answer left waiting (state 'waiting'). */
        sessionId: z.string().min(1).max(64).optional(),
      })
      .superRefine((body, context) => {
        if (body.sessionId === undefined && !ussdCodePattern.test(body.code)) {
          context.addIssue({ code: 'custom', path: ['code'], message: 'must be a USSD code such as *100#' });
        }
      }),
    responses: {
      200: { description: "The network's answer", schema: ussdExchangeViewSchema },
      ...errorResponses(400, 404, 502, 503, 504, ...authErrors),
    },
    handle: async ({ body, params }) => {
      const deviceId = requireDevice(deps.devices, params.id ?? '').id;
      const exchange = await deps.sessions.request(deviceId, body.code, body.sessionId);
      return { status: 200, body: exchangeView(exchange) };
    },
  });

  api.route({
    method: 'delete',
    path: '/gateway/v1/devices/:id/ussd/:sessionId',
    summary: 'Cancel a USSD session the network holds open (AT+CUSD=2)',
    tag,
    access: { scope: 'settings:write' },
    responses: { 204: { description: 'Cancelled' }, ...errorResponses(404, 503, ...authErrors) },
    handle: async ({ params }) => {
      const deviceId = requireDevice(deps.devices, params.id ?? '').id;
      await deps.sessions.cancel(deviceId, params.sessionId ?? '');
      return { status: 204 };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/devices/:id/ussd',
    summary: "A modem's recent USSD answers, newest first (kept in memory)",
    tag,
    access: { scope: 'devices:list' },
    responses: {
      200: { description: 'Recent answers', schema: z.array(ussdExchangeViewSchema) },
      ...errorResponses(404, ...authErrors),
    },
    handle: async ({ params }) => {
      const deviceId = requireDevice(deps.devices, params.id ?? '').id;
      return { status: 200, body: deps.sessions.recent(deviceId).map(exchangeView) };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/devices/:id/operations',
    summary: "A modem's balance check and call settings, with the last balance answer",
    tag,
    access: { scope: 'devices:list' },
    responses: {
      200: { description: 'Settings', schema: modemOperationsViewSchema },
      ...errorResponses(404, ...authErrors),
    },
    handle: async ({ params }) => {
      const deviceId = requireDevice(deps.devices, params.id ?? '').id;
      return { status: 200, body: operationsView(deps, deviceId) };
    },
  });

  api.route({
    method: 'put',
    path: '/gateway/v1/devices/:id/operations',
    summary: "Set a modem's balance check (code, interval, pattern, threshold) and call handling",
    tag,
    access: { scope: 'settings:write' },
    body: modemOperationsSettingsSchema,
    responses: {
      200: { description: 'Settings', schema: modemOperationsViewSchema },
      ...errorResponses(400, 404, 415, ...authErrors),
    },
    handle: async ({ body, params }) => {
      const deviceId = requireDevice(deps.devices, params.id ?? '').id;
      await deps.settings.save(deviceId, body);
      deps.balance.schedule(deviceId);
      return { status: 200, body: operationsView(deps, deviceId) };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/devices/:id/balance',
    summary: "Check a modem's balance now with its balance code",
    tag,
    access: { scope: 'settings:write' },
    responses: {
      200: { description: 'The new reading', schema: balanceViewSchema },
      ...errorResponses(400, 404, 502, 503, 504, ...authErrors),
    },
    handle: async ({ params }) => {
      const deviceId = requireDevice(deps.devices, params.id ?? '').id;
      return { status: 200, body: balanceView(await deps.balance.check(deviceId)) };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/calls',
    summary: 'Missed (incoming voice) calls, newest first; by modem, caller and time',
    tag,
    access: { scope: 'inbox:list' },
    query: z.object({
      ...pageQuery,
      ...timeRangeQuery,
      deviceId: z.string().max(64).optional(),
      phoneNumber: z.string().max(32).optional(),
    }),
    responses: {
      200: {
        description: 'A page of calls; X-Total-Count has the total',
        schema: z.array(missedCallViewSchema),
      },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ query }) => {
      const page = deps.listCalls({
        deviceId: query.deviceId,
        number: query.phoneNumber,
        from: query.from,
        to: query.to,
        limit: query.limit,
        offset: query.offset,
      });
      return {
        status: 200,
        body: page.items.map(callView),
        headers: { 'X-Total-Count': String(page.total) },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/stats',
    summary: 'Per-modem figures: sent, delivered, failed and received per day, and the last 24 h of signal',
    tag,
    access: { scope: 'messages:list' },
    query: z.object({ deviceId: z.string().max(64).optional(), days: queryInteger(1, 366).default(14) }),
    responses: {
      200: {
        description: 'One entry per modem (or the one asked for)',
        schema: z.array(modemFiguresViewSchema),
      },
      ...errorResponses(400, 404, ...authErrors),
    },
    handle: async ({ query }) => {
      const ids =
        query.deviceId === undefined
          ? deps.devices.list().map((device) => device.id)
          : [requireDevice(deps.devices, query.deviceId).id];
      const since = deps.now() - dayMs;
      const body = ids.map((deviceId) => ({
        deviceId,
        days: deps.dailyStats(deviceId, query.days),
        signal: deps
          .signalSince(deviceId, since)
          .map((sample) => ({ ...sample, at: toIsoWithOffset(sample.at) })),
      }));
      return { status: 200, body };
    },
  });
}

function operationsView(
  deps: ModemOperationsRouteDependencies,
  deviceId: string,
): z.output<typeof modemOperationsViewSchema> {
  const last = deps.settings.lastBalance(deviceId);
  const disabled = deps.settings.balancePatternDisabled(deviceId);
  return {
    ...deps.settings.settings(deviceId),
    ...(last ? { lastBalance: balanceView(last) } : {}),
    ...(disabled ? { balancePatternDisabled: { ...disabled, at: toIsoWithOffset(disabled.at) } } : {}),
  };
}
