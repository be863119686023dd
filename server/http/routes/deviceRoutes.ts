import { z } from 'zod';
import { toIsoWithOffset } from '../../clock/isoTime.js';
import type { DeviceDirectory } from '../../devices/deviceDirectory.js';
import type { DeviceInfo } from '../../domain/device.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import { type DeviceView, deviceViewSchema } from '../../schemas/deviceViewSchema.js';
import type { AwaitingReports } from '../../store/repositories.js';
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
