import { z } from 'zod';
import { toIsoWithOffset } from '../../clock/isoTime.js';
import type { DeviceInfo } from '../../domain/device.js';
import { RadioTechnologies } from '../../domain/device.js';
import { SmsServicePreferences } from '../../domain/smsServicePreference.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { DeviceDirectory } from '../../modem/deviceDirectory.js';
import type { AwaitingReports } from '../../store/repositories.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

/**
 * GET /devices and DELETE /devices/{id}, with the `/device` alias. Upstream's device record
 * (DESIGN §2) plus our modem details under `modem`.
 */
export const deviceViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastSeen: z.string(),
  simCards: z.array(
    z.object({
      slotIndex: z.number().int(),
      simNumber: z.number().int(),
      phoneNumber: z.string().optional(),
      carrierName: z.string().optional(),
      iccid: z.string().optional(),
    }),
  ),
  modem: z.object({
    port: z.string(),
    simulated: z.boolean(),
    status: z.string(),
    kind: z.enum(['serial', 'hilink', 'android']).optional(),
    phone: z
      .object({
        batteryPercent: z.number().optional(),
        charging: z.boolean().optional(),
        internet: z.boolean().optional(),
        appVersion: z.string().optional(),
      })
      .optional(),
    limitations: z.array(z.string()).optional(),
    statusDetail: z.string().optional(),
    manufacturer: z.string().optional(),
    model: z.string().optional(),
    revision: z.string().optional(),
    imei: z.string().optional(),
    usb: z
      .object({
        vendorId: z.string().optional(),
        productId: z.string().optional(),
        serialNumber: z.string().optional(),
      })
      .optional(),
    signal: z.object({ rssi: z.number(), dbm: z.number().optional(), bars: z.number() }).optional(),
    operator: z.string().optional(),
    registration: z.string().optional(),
    radio: z.enum(RadioTechnologies).optional(),
    radioSupport: z.array(z.enum(RadioTechnologies)).optional(),
    smsService: z.enum(SmsServicePreferences).optional(),
    smsServiceOptions: z.array(z.enum(SmsServicePreferences)).optional(),
    simState: z.string().optional(),
    smsc: z.string().optional(),
    messageStorage: z
      .array(
        z.object({
          memory: z.string(),
          used: z.number().int(),
          total: z.number().int(),
          roles: z.array(z.enum(['read', 'write', 'receive'])),
        }),
      )
      .optional(),
    balance: z
      .object({ answer: z.string(), amount: z.number().optional(), at: z.string(), low: z.boolean() })
      .optional(),
    deliveryReports: z
      .object({
        overdue: z
          .number()
          .int()
          .describe('messages sent over an hour ago (last two days) still without the report they asked for'),
        oldestSentAt: z.string(),
      })
      .optional()
      .describe('present while reports are overdue: the modem may have stopped passing them on'),
  }),
});

export function toDeviceView(
  device: DeviceInfo,
  overdue?: Omit<AwaitingReports, 'deviceId'>,
): z.output<typeof deviceViewSchema> {
  return {
    ...device,
    createdAt: toIsoWithOffset(device.createdAt),
    updatedAt: toIsoWithOffset(device.updatedAt),
    lastSeen: toIsoWithOffset(device.lastSeen),
    modem: {
      ...device.modem,
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
