import { z } from 'zod';
import {
  DeviceCapabilityNames,
  DeviceStatusReasons,
  ModemKinds,
  ModemStatuses,
  RadioTechnologies,
  RegistrationNames,
  StorageRoles,
} from '../domain/device.js';
import { SmsServicePreferences } from '../domain/smsServicePreference.js';

/**
 * The device record of GET /devices and of the routes that add or rename a modem: upstream's record
 * (docs/decisions.md#devices) plus our modem details under `modem`. Pure, so the UI takes its type
 * from here (`DeviceRecord`) instead of keeping a copy.
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
    status: z.enum(ModemStatuses),
    kind: z.enum(ModemKinds).optional(),
    phone: z
      .object({
        batteryPercent: z.number().optional(),
        charging: z.boolean().optional(),
        internet: z.boolean().optional(),
        appVersion: z.string().optional(),
      })
      .optional(),
    capabilities: z.array(z.enum(DeviceCapabilityNames)).optional(),
    limitations: z.array(z.string()).optional(),
    statusDetail: z.string().optional(),
    statusReason: z.enum(DeviceStatusReasons).optional(),
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
    registration: z.enum(RegistrationNames).optional(),
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
          roles: z.array(z.enum(StorageRoles)),
        }),
      )
      .optional(),
    relayLink: z
      .object({
        mode: z.union([z.literal(1), z.literal(2)]).describe('the +CMMS mode in use (TS 27.005 §3.5.6)'),
        keptLinkSends: z
          .number()
          .int()
          .describe('parts sent within 1 s of the previous answer, on the link it kept open'),
      })
      .optional()
      .describe('present when the modem keeps the SMS relay link open between sends (+CMMS)'),
    reportsRefused: z
      .object({ memory: z.string(), at: z.string() })
      .optional()
      .describe('the memory delivery reports land in was last found full then: reports were refused'),
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

export type DeviceView = z.output<typeof deviceViewSchema>;
