import { z } from 'zod';
import type { DeviceInfo } from '../domain/device.js';
import type { ApiBuilder } from '../http/defineRoute.js';
import { authErrors, errorResponses } from '../http/responses.js';
import { deviceViewSchema, toDeviceView } from '../http/routes/deviceRoutes.js';

/** A phone the user adds: on the network by its app's address, or on USB by its adb serial. */
export interface NewPhone {
  url?: string;
  serial?: string;
  username: string;
  password: string;
}

const usbPhoneSchema = z.object({
  serial: z.string(),
  /** adb's word: "device" (usable), "unauthorized", "offline", "no permissions". */
  state: z.string(),
  model: z.string().optional(),
  /** What to do on the phone when adb cannot use it. */
  advice: z.string().optional(),
  inUse: z.boolean(),
});
const usbListingSchema = z.object({
  adb: z.enum(['found', 'unavailable']),
  /** Why adb could not be run (not installed, no --adb). */
  detail: z.string().optional(),
  phones: z.array(usbPhoneSchema),
});
export type UsbPhoneListing = z.output<typeof usbListingSchema>;

const newPhoneSchema = z
  .object({
    url: z
      .string()
      .regex(/^https?:\/\/[^@/\s]+\/?$/, 'must be the address the app shows, like http://192.168.1.20:8080')
      .optional(),
    serial: z
      .string()
      .regex(/^[\w.:-]{1,64}$/, 'must be a serial as `adb devices` lists it')
      .optional(),
    username: z.string().min(1).max(64).default('sms'),
    password: z.string().min(1).max(256),
  })
  .refine((body) => (body.url === undefined) !== (body.serial === undefined), {
    message: 'give either url (Wi-Fi) or serial (USB)',
    path: ['url'],
  });

/** Adding Android phones on the Modems screen; the password is write-only. */
export function registerPhoneRoutes(
  api: ApiBuilder,
  deps: { add: (phone: NewPhone) => Promise<DeviceInfo>; usbPhones: () => Promise<UsbPhoneListing> },
): void {
  api.route({
    method: 'get',
    path: '/gateway/v1/usb-phones',
    summary: 'Android phones adb lists on USB, with what to do for those it cannot use',
    tag: 'Devices',
    access: { scope: 'devices:list' },
    responses: { 200: { description: 'Phones', schema: usbListingSchema }, ...errorResponses(...authErrors) },
    handle: async () => ({ status: 200, body: await deps.usbPhones() }),
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/phones',
    summary:
      'Add an Android phone running SMS Gateway for Android (Wi-Fi address or USB serial, and its password)',
    tag: 'Devices',
    access: { scope: 'settings:write' },
    body: newPhoneSchema,
    responses: {
      201: { description: 'The new device', schema: deviceViewSchema },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ body }) => {
      const phone: NewPhone = { username: body.username, password: body.password };
      if (body.url !== undefined) phone.url = body.url;
      if (body.serial !== undefined) phone.serial = body.serial;
      return { status: 201, body: toDeviceView(await deps.add(phone)) };
    },
  });
}
