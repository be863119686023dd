import { z } from 'zod';
import type { TrafficLine } from '../../at/trafficLine.js';
import { type CallerRequest, holdsScope, type Principal } from '../../auth/accessControl.js';
import type { LoginChangeRequest } from '../../auth/loginChange.js';
import { toIsoWithOffset } from '../../clock/isoTime.js';
import { type DeviceDirectory, requireDevice } from '../../devices/deviceDirectory.js';
import type { DeviceInfo } from '../../domain/device.js';
import type { RefusedPort } from '../../domain/portRefusal.js';
import type { SmsServicePreference } from '../../domain/smsServicePreference.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import { deviceViewSchema } from '../../schemas/deviceViewSchema.js';
import { errorBodySchema } from '../../schemas/errorBodySchema.js';
import {
  atLogQuerySchema,
  credentialsSchema,
  dailyStatsQuerySchema,
  deliveryListQuerySchema,
  deviceNameSchema,
  hilinkSchema,
  sendingPauseSchema,
  serialModemSchema,
  simPinSchema,
  simulatedIncomingSchema,
  smsServiceSchema,
} from '../../schemas/gatewaySchemas.js';
import {
  atLogLineViewSchema,
  type GatewayStatus,
  gatewayStatusSchema,
  refusedPortViewSchema,
  serialPortViewSchema,
  webhookDeliveryViewSchema,
} from '../../schemas/gatewayViewSchemas.js';
import { dailyCountViewSchema } from '../../schemas/modemOperationsSchemas.js';
import type { DailyCount } from '../../stats/dailyStats.js';
import type { SerialPortInfo } from '../../transport/portDiscovery.js';
import type { WebhookDelivery } from '../../webhooks/webhookDelivery.js';
import type { DeliveryQuery } from '../../webhooks/webhookDispatcher.js';
import { type ApiBuilder, callerOf } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';
import { toDeviceView } from './deviceRoutes.js';

/**
 * Our extensions under /gateway/v1/ (docs/decisions.md#mounts): what the desktop UI needs beyond
 * the upstream API — gateway status, daily counts, serial ports and modem control, the AT log,
 * webhook delivery attempts, pause/resume. The upstream routes keep the upstream shapes.
 */
export interface GatewayRouteDependencies {
  devices: DeviceDirectory;
  /**
   * The status is read with `messages:list`; secrets in it (the fleet login) are shown only to a
   * reader who may write them.
   */
  status(reader: { maySeeSecrets: boolean }): GatewayStatus;
  /** The login and password of the user the fleet server created: the first time only. */
  revealCreatedFleetUser(): { login: string; password: string } | undefined;
  dailyStats(days: number): DailyCount[];
  serialPorts(): Promise<(SerialPortInfo & { inUse: boolean })[]>;
  /** USB ports port discovery found but may not open, with the fix (ModemPool.refusedPorts). */
  refusedPorts(): RefusedPort[];
  /** A serial port path, or `tcp://host:port` for a modem behind a serial server (kept for next starts). */
  addSerialModem(path: string, baudRate: number): Promise<DeviceInfo>;
  addHiLink(url: string): Promise<DeviceInfo>;
  atLog(deviceId: string, limit: number): TrafficLine[] | undefined;
  deliveries(query: DeliveryQuery): WebhookDelivery[];
  sendTestEvent(webhookId: string): Promise<WebhookDelivery | undefined>;
  /** Failed deliveries back to pending: those of `ids`, else every failed one (of `webhookId`). */
  resendDeliveries(filter: { ids?: string[]; webhookId?: string }): Promise<WebhookDelivery[]>;
  /** Resolves once the choice is on disk: a pause lasts until a person lifts it. */
  setSendingPaused(paused: boolean): Promise<void>;
  /** Needs the current password; ends every token (server/auth/loginChange.ts). */
  changeCredentials(caller: CallerRequest, change: LoginChangeRequest): Promise<void>;
  setSmsService(deviceId: string, preference: SmsServicePreference): Promise<void>;
  /** Sets the name staff know a modem by; false when the device is unknown. */
  renameDevice(deviceId: string, name: string): Promise<boolean>;
  /**
   * Delivers an SMS to a built-in simulated modem as if the network sent it; throws
   * GatewayError(Conflict) for a real modem, which nothing may fake a message on.
   */
  simulateIncoming(deviceId: string, message: { sender: string; text: string }): void;
}

const tag = 'Gateway extensions';

/** The fleet settings are written with settings:write, so their secrets are read with it too. */
function statusReader(principal: Principal | undefined): { maySeeSecrets: boolean } {
  return { maySeeSecrets: principal !== undefined && holdsScope(principal, 'settings:write') };
}

const createdFleetUserSchema = z.object({ login: z.string(), password: z.string() });

export function registerGatewayRoutes(api: ApiBuilder, deps: GatewayRouteDependencies): void {
  api.route({
    method: 'get',
    path: '/gateway/v1/status',
    summary: 'Gateway status: queue, holds (rate limit, pause), webhook health, simulated modem',
    tag,
    access: { scope: 'messages:list' },
    responses: {
      200: { description: 'Status', schema: gatewayStatusSchema },
      ...errorResponses(...authErrors),
    },
    handle: async ({ principal }) => ({ status: 200, body: deps.status(statusReader(principal)) }),
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/fleet/created-user-password',
    summary:
      'The login and password of the user the fleet server created at registration, shown once: note them',
    tag,
    access: { scope: 'settings:write' },
    responses: {
      200: { description: 'The created user', schema: createdFleetUserSchema },
      ...errorResponses(404, ...authErrors),
    },
    handle: async () => {
      const user = deps.revealCreatedFleetUser();
      if (!user) {
        throw new GatewayError(
          ErrorCode.NotFound,
          'no created password waits: this run registered no new user, or it was shown already',
        );
      }
      return { status: 200, body: user };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/stats/daily',
    summary: 'Sent, delivered, failed and received per local day',
    tag,
    access: { scope: 'messages:list' },
    query: dailyStatsQuerySchema,
    responses: {
      200: {
        description: 'One entry per day, oldest first',
        schema: z.array(dailyCountViewSchema),
      },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ query }) => ({ status: 200, body: deps.dailyStats(query.days) }),
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/serial-ports',
    summary: 'Serial ports on this PC, and whether a modem of ours uses them',
    tag,
    access: { scope: 'devices:list' },
    responses: {
      200: { description: 'Ports', schema: z.array(serialPortViewSchema) },
      ...errorResponses(...authErrors),
    },
    handle: async () => ({ status: 200, body: await deps.serialPorts() }),
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/serial-ports/refused',
    summary:
      'USB serial ports port discovery found but this user may not open (a modem, most likely), with the command that fixes it',
    tag,
    access: { scope: 'devices:list' },
    responses: {
      200: { description: 'Refused ports; empty when none', schema: z.array(refusedPortViewSchema) },
      ...errorResponses(...authErrors),
    },
    handle: async () => ({ status: 200, body: deps.refusedPorts() }),
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/modems',
    summary: 'Add a serial modem by port path, or one behind a serial server by tcp://host:port',
    tag,
    access: { scope: 'settings:write' },
    body: serialModemSchema,
    responses: {
      201: { description: 'The new device', schema: deviceViewSchema },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ body }) => ({
      status: 201,
      body: toDeviceView(await deps.addSerialModem(body.path, body.baudRate)),
    }),
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/hilink',
    summary: 'Add a Huawei HiLink stick by the URL of its web API (it has no AT port)',
    tag,
    access: { scope: 'settings:write' },
    body: hilinkSchema,
    responses: {
      201: { description: 'The new device', schema: deviceViewSchema },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ body }) => ({ status: 201, body: toDeviceView(await deps.addHiLink(body.url)) }),
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/devices/:id/pin',
    summary: 'Unlock a SIM with its PIN (tried once; a wrong PIN is never retried automatically)',
    tag,
    access: { scope: 'settings:write' },
    body: simPinSchema,
    responses: { 204: { description: 'PIN accepted' }, ...errorResponses(400, 404, ...authErrors) },
    handle: async ({ body, params }) => {
      const device = requireDevice(deps.devices, params.id ?? '');
      await deps.devices.enterPin(device.id, body.pin);
      return { status: 204 };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/devices/:id/sms-service',
    summary: 'Set the SMS domain preference of a modem (AT+CGSMS, TS 27.007 §10.1.20)',
    tag,
    access: { scope: 'settings:write' },
    body: smsServiceSchema,
    responses: {
      204: { description: 'Set; the device record shows it' },
      ...errorResponses(400, 404, 503, ...authErrors),
    },
    handle: async ({ body, params }) => {
      const device = requireDevice(deps.devices, params.id ?? '');
      await deps.setSmsService(device.id, body.service);
      return { status: 204 };
    },
  });

  api.route({
    method: 'patch',
    path: '/gateway/v1/devices/:id',
    summary: 'Name a modem (kept under its IMEI-derived id, shown everywhere instead of the model)',
    tag,
    access: { scope: 'settings:write' },
    body: deviceNameSchema,
    responses: {
      200: { description: 'The renamed device', schema: deviceViewSchema },
      ...errorResponses(400, 404, ...authErrors),
    },
    handle: async ({ body, params }) => {
      const device = requireDevice(deps.devices, params.id ?? '');
      await deps.renameDevice(device.id, body.name);
      return { status: 200, body: toDeviceView(requireDevice(deps.devices, device.id)) };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/devices/:id/simulate-incoming',
    summary:
      'Deliver a text SMS to a built-in simulated modem as if a phone sent it (refused with 409 for real modems)',
    tag,
    access: { scope: 'settings:write' },
    body: simulatedIncomingSchema,
    responses: {
      202: { description: 'Delivered to the simulator; the gateway reads it like any incoming SMS' },
      ...errorResponses(400, 404, 409, ...authErrors),
    },
    handle: async ({ body, params }) => {
      const device = requireDevice(deps.devices, params.id ?? '');
      deps.simulateIncoming(device.id, body);
      return { status: 202 };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/devices/:id/at-log',
    summary: "The latest AT traffic of a modem's port (PINs redacted)",
    tag,
    access: { scope: 'logs:read' },
    query: atLogQuerySchema,
    responses: {
      200: { description: 'Lines, oldest first', schema: z.array(atLogLineViewSchema) },
      ...errorResponses(400, 404, ...authErrors),
    },
    handle: async ({ params, query }) => {
      const device = requireDevice(deps.devices, params.id ?? '');
      const lines = deps.atLog(device.id, query.limit) ?? [];
      return { status: 200, body: lines.map((line) => ({ ...line, at: toIsoWithOffset(line.at) })) };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/webhooks/deliveries',
    summary: 'Webhook deliveries with their attempts, status codes and errors, newest first',
    tag,
    access: { scope: 'webhooks:list' },
    query: deliveryListQuerySchema,
    responses: {
      200: { description: 'Deliveries', schema: z.array(webhookDeliveryViewSchema) },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ query }) => ({ status: 200, body: deps.deliveries(query) }),
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/webhooks/deliveries/resend',
    summary: 'Send failed deliveries again: those named, or every failed one (of one webhook)',
    tag,
    access: { scope: 'webhooks:write' },
    body: z.object({
      ids: z
        .array(z.string().min(1))
        .min(1)
        .max(1000)
        .optional()
        .describe('deliveries; absent: every failed one'),
      webhookId: z.string().min(1).optional().describe('only the failed deliveries of this webhook'),
    }),
    responses: {
      202: { description: 'The deliveries queued again', schema: z.array(webhookDeliveryViewSchema) },
      ...errorResponses(400, 415, ...authErrors),
    },
    handle: async ({ body }) => ({ status: 202, body: await deps.resendDeliveries(body) }),
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/webhooks/:id/test',
    summary: "Send a test event of the webhook's own kind to it",
    tag,
    access: { scope: 'webhooks:write' },
    responses: {
      202: { description: 'Queued', schema: webhookDeliveryViewSchema },
      ...errorResponses(404, ...authErrors),
    },
    handle: async ({ params }) => {
      const delivery = await deps.sendTestEvent(params.id ?? '');
      if (!delivery)
        throw new GatewayError(ErrorCode.NotFound, `webhook ${params.id} not found`, { field: 'id' });
      return { status: 202, body: delivery };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/sending',
    summary: 'Pause or resume sending (messages keep queueing while paused)',
    tag,
    access: { scope: 'settings:write' },
    body: sendingPauseSchema,
    responses: {
      200: { description: 'Status', schema: gatewayStatusSchema },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ body, principal }) => {
      await deps.setSendingPaused(body.paused);
      return { status: 200, body: deps.status(statusReader(principal)) };
    },
  });

  api.route({
    method: 'put',
    path: '/gateway/v1/credentials',
    summary:
      'Change the Basic login (user and password); needs the current password, and ends every token issued so far',
    tag,
    access: { scope: 'all:any' },
    body: credentialsSchema,
    responses: {
      204: { description: 'Changed; the old password and every token issued before no longer work' },
      400: { description: 'A field is missing or invalid; the message names it', schema: errorBodySchema },
      403: {
        description: 'currentPassword is not the current password, or the token lacks all:any',
        schema: errorBodySchema,
      },
      ...errorResponses(401, 429, 500),
    },
    handle: async ({ body, ctx }) => {
      await deps.changeCredentials(callerOf(ctx), body);
      return { status: 204 };
    },
  });
}
