import { z } from 'zod';
import { toIsoWithOffset } from '../../../clock/isoTime.js';
import type { DeviceInfo } from '../../../contract/domain/device.js';
import type { RefusedPort } from '../../../contract/domain/portRefusal.js';
import { type DeviceView, deviceViewSchema } from '../../../contract/schemas/deviceViewSchema.js';
import {
  atLogQuerySchema,
  deviceNameSchema,
  hilinkSchema,
  serialModemSchema,
  simPinSchema,
  simulatedFailureSchema,
  simulatedIncomingSchema,
  smsServiceSchema,
} from '../../../contract/schemas/gatewaySchemas.js';
import {
  atLogLineViewSchema,
  refusedPortViewSchema,
  serialPortViewSchema,
} from '../../../contract/schemas/gatewayViewSchemas.js';
import { type DeviceDirectory, requireDevice } from '../../../devices/pool/deviceDirectory.js';
import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import type { DeviceAdministration } from '../../../services/operations/deviceAdministration.js';
import type { AwaitingReports } from '../../../store/repositories.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

/** A device as GET /devices and DELETE /devices/{id} (with the `/device` alias) answer it. */
export function toDeviceView(device: DeviceInfo, overdue?: Omit<AwaitingReports, 'deviceId'>): DeviceView {
  return {
    ...device,
    createdAt: toIsoWithOffset(device.createdAt),
    updatedAt: toIsoWithOffset(device.updatedAt),
    lastSeen: toIsoWithOffset(device.lastSeen),
    modem: {
      ...device.modem,
      reportsRefused: device.modem.reportsRefused && {
        ...device.modem.reportsRefused,
        at: toIsoWithOffset(device.modem.reportsRefused.at),
      },
      balance: device.modem.balance && {
        ...device.modem.balance,
        at: toIsoWithOffset(device.modem.balance.at),
      },
      ...(overdue && {
        deliveryReports: { overdue: overdue.count, oldestSentAt: toIsoWithOffset(overdue.oldestSentAt) },
      }),
    },
  };
}

export function registerDeviceRoutes(
  api: ApiBuilder,
  deps: {
    devices: DeviceDirectory;
    /** Per device id, its messages still waiting for a delivery report (`overdueReports`). */
    overdueReports: () => ReadonlyMap<string, Omit<AwaitingReports, 'deviceId'>>;
  },
): void {
  api.route({
    method: 'get',
    path: '/devices',
    aliases: ['/device'],
    summary: 'List devices (one per attached modem)',
    tag: 'Devices',
    access: { scope: 'devices:list' },
    responses: {
      200: { description: 'Every known device', schema: z.array(deviceViewSchema) },
      ...errorResponses(400, ...authErrors),
    },
    async handle() {
      const overdue = deps.overdueReports();
      return {
        status: 200,
        body: deps.devices.list().map((device) => toDeviceView(device, overdue.get(device.id))),
      };
    },
  });

  api.route({
    method: 'delete',
    path: '/devices/:id',
    aliases: ['/device/:id'],
    summary: 'Forget a device',
    tag: 'Devices',
    access: { scope: 'devices:delete' },
    responses: { 204: { description: 'Forgotten' }, ...errorResponses(400, 404, ...authErrors) },
    async handle({ params }) {
      const id = params.id ?? '';
      if (!(await deps.devices.forget(id))) {
        throw new GatewayError(ErrorCode.NotFound, `device ${id} not found`, { field: 'id' });
      }
      return { status: 204 };
    },
  });
}

/**
 * Our device extensions under /gateway/v1/ (the Modems screen): serial ports, adding a modem or
 * a HiLink stick, a SIM's PIN, the SMS domain, a modem's name, a simulated SMS and the AT log.
 */
export function registerDeviceAdminRoutes(
  api: ApiBuilder,
  deps: {
    devices: DeviceDirectory;
    admin: DeviceAdministration;
    /** USB ports port discovery found but may not open, with the fix (ModemPool.refusedPorts). */
    refusedPorts: () => RefusedPort[];
  },
): void {
  api.route({
    method: 'get',
    path: '/gateway/v1/serial-ports',
    summary: 'Serial ports on this PC, and whether a modem of ours uses them',
    tag: 'Devices',
    access: { scope: 'devices:list' },
    responses: {
      200: { description: 'Ports', schema: z.array(serialPortViewSchema) },
      ...errorResponses(...authErrors),
    },
    handle: async () => ({ status: 200, body: await deps.admin.serialPorts() }),
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/serial-ports/refused',
    summary:
      'USB serial ports port discovery found but this user may not open (a modem, most likely), with the command that fixes it',
    tag: 'Devices',
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
    tag: 'Devices',
    access: { scope: 'settings:write' },
    body: serialModemSchema,
    responses: {
      201: { description: 'The new device', schema: deviceViewSchema },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ body }) => ({
      status: 201,
      body: toDeviceView(await deps.admin.addSerialModem(body.path, body.baudRate)),
    }),
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/hilink',
    summary: 'Add a Huawei HiLink stick by the URL of its web API (it has no AT port)',
    tag: 'Devices',
    access: { scope: 'settings:write' },
    body: hilinkSchema,
    responses: {
      201: { description: 'The new device', schema: deviceViewSchema },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ body }) => ({ status: 201, body: toDeviceView(await deps.admin.addHiLink(body.url)) }),
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/devices/:id/pin',
    summary: 'Unlock a SIM with its PIN (tried once; a wrong PIN is never retried automatically)',
    tag: 'Devices',
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
    tag: 'Devices',
    access: { scope: 'settings:write' },
    body: smsServiceSchema,
    responses: {
      204: { description: 'Set; the device record shows it' },
      ...errorResponses(400, 404, 503, ...authErrors),
    },
    handle: async ({ body, params }) => {
      const device = requireDevice(deps.devices, params.id ?? '');
      await deps.admin.setSmsService(device.id, body.service);
      return { status: 204 };
    },
  });

  api.route({
    method: 'patch',
    path: '/gateway/v1/devices/:id',
    summary: 'Name a modem (kept under its IMEI-derived id, shown everywhere instead of the model)',
    tag: 'Devices',
    access: { scope: 'settings:write' },
    body: deviceNameSchema,
    responses: {
      200: { description: 'The renamed device', schema: deviceViewSchema },
      ...errorResponses(400, 404, ...authErrors),
    },
    handle: async ({ body, params }) => {
      const device = requireDevice(deps.devices, params.id ?? '');
      await deps.admin.rename(device.id, body.name);
      return { status: 200, body: toDeviceView(requireDevice(deps.devices, device.id)) };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/devices/:id/simulate-incoming',
    summary:
      'Deliver a text SMS to a built-in simulated modem as if a phone sent it (refused with 409 for real modems)',
    tag: 'Devices',
    access: { scope: 'settings:write' },
    body: simulatedIncomingSchema,
    responses: {
      202: { description: 'Delivered to the simulator; the gateway reads it like any incoming SMS' },
      ...errorResponses(400, 404, 409, ...authErrors),
    },
    handle: async ({ body, params }) => {
      const device = requireDevice(deps.devices, params.id ?? '');
      deps.admin.simulateIncoming(device.id, body);
      return { status: 202 };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/devices/:id/simulate-failure',
    summary:
      'Have a built-in simulated modem refuse its next sends (to one number if given) with a +CMS ERROR (refused with 409 for real modems)',
    tag: 'Devices',
    access: { scope: 'settings:write' },
    body: simulatedFailureSchema,
    responses: {
      202: { description: 'The simulator refuses the next sends so' },
      ...errorResponses(400, 404, 409, ...authErrors),
    },
    handle: async ({ body, params }) => {
      const device = requireDevice(deps.devices, params.id ?? '');
      deps.admin.simulateSendFailure(device.id, {
        cmsCode: body.cmsCode,
        count: body.count,
        ...(body.phoneNumber === undefined ? {} : { phoneNumber: body.phoneNumber }),
      });
      return { status: 202 };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/devices/:id/at-log',
    summary: "The latest AT traffic of a modem's port (PINs redacted)",
    tag: 'Devices',
    access: { scope: 'logs:read' },
    query: atLogQuerySchema,
    responses: {
      200: { description: 'Lines, oldest first', schema: z.array(atLogLineViewSchema) },
      ...errorResponses(400, 404, ...authErrors),
    },
    handle: async ({ params, query }) => {
      const device = requireDevice(deps.devices, params.id ?? '');
      const lines = deps.admin.atLog(device.id, query.limit) ?? [];
      return { status: 200, body: lines.map((line) => ({ ...line, at: toIsoWithOffset(line.at) })) };
    },
  });
}
