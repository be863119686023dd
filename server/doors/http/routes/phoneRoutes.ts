import type Koa from 'koa';
import { z } from 'zod';
import type { DeviceInfo } from '../../../contract/domain/device.js';
import { deviceViewSchema } from '../../../contract/schemas/deviceViewSchema.js';
import { errorBodySchema } from '../../../contract/schemas/errorBodySchema.js';
import {
  newPhoneSchema,
  pacingPatchSchema,
  phoneViewSchema,
  type UsbPhoneListing,
  usbListingSchema,
} from '../../../contract/schemas/phoneSchemas.js';
import { defaultPhonePacing, type PhonePacingSettings } from '../../../devices/phone/phonePacing.js';
import type { NewPhone } from '../../../devices/phone/phoneRegistry.js';
import type { PhoneHookReceiver } from '../../../devices/phone/phoneWebhooks.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';
import { toDeviceView } from './deviceRoutes.js';

/** Adding Android phones on the Modems screen; the password is write-only. */
export function registerPhoneRoutes(
  api: ApiBuilder,
  deps: {
    add: (phone: NewPhone) => Promise<DeviceInfo>;
    usbPhones: () => Promise<UsbPhoneListing>;
    /** The phone's pacing now; NotFound for a device that is no phone. */
    pacing: (deviceId: string) => PhonePacingSettings;
    setPacing: (deviceId: string, pacing: PhonePacingSettings) => Promise<PhonePacingSettings>;
  },
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
      'Add an Android phone running SMS Gateway for Android (Wi-Fi address or USB serial, and its password); the app is asked first whether it takes the password',
    tag: 'Devices',
    access: { scope: 'settings:write' },
    body: newPhoneSchema,
    responses: {
      201: { description: 'The new device', schema: deviceViewSchema },
      ...errorResponses(400, ...authErrors),
      503: {
        description: 'A phone added before does not answer, so a new password cannot be checked',
        schema: errorBodySchema,
      },
    },
    handle: async ({ body }) => {
      const phone: NewPhone = { username: body.username, password: body.password };
      if (body.url !== undefined) phone.url = body.url;
      if (body.serial !== undefined) phone.serial = body.serial;
      if (body.pacing !== undefined) phone.pacing = { ...defaultPhonePacing, ...stripUndefined(body.pacing) };
      return { status: 201, body: toDeviceView(await deps.add(phone)) };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/phones/:deviceId',
    summary: "An Android phone's pacing: interval between hand-overs, cap per period, messages it may hold",
    tag: 'Devices',
    access: { scope: 'devices:list' },
    responses: {
      200: { description: 'The phone', schema: phoneViewSchema },
      ...errorResponses(404, ...authErrors),
    },
    handle: async ({ params }) => {
      const deviceId = params.deviceId ?? '';
      return { status: 200, body: { deviceId, pacing: deps.pacing(deviceId) } };
    },
  });

  api.route({
    method: 'patch',
    path: '/gateway/v1/phones/:deviceId',
    summary: "Change an Android phone's pacing (fields left out keep their value)",
    tag: 'Devices',
    access: { scope: 'settings:write' },
    body: z.object({ pacing: pacingPatchSchema }),
    responses: {
      200: { description: 'The phone', schema: phoneViewSchema },
      ...errorResponses(400, 404, ...authErrors),
    },
    handle: async ({ params, body }) => {
      const deviceId = params.deviceId ?? '';
      const pacing = { ...deps.pacing(deviceId), ...stripUndefined(body.pacing) };
      return { status: 200, body: { deviceId, pacing: await deps.setPacing(deviceId, pacing) } };
    },
  });
}

/** A partial update's fields that were given (zod's partial() leaves the others undefined). */
function stripUndefined<T extends object>(partial: T): Partial<T> {
  return Object.fromEntries(Object.entries(partial).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** POST /gateway/v1/phone-hooks/{token}: what a phone's app posts (phone/phoneWebhooks.ts checks it). */
export function registerPhoneHookRoute(api: ApiBuilder, deps: { hooks: PhoneHookReceiver }): void {
  api.route({
    method: 'post',
    path: '/gateway/v1/phone-hooks/:token',
    summary: "An Android phone's webhook (its SMS Gateway app posts message states and incoming SMS here)",
    tag: 'Devices',
    access: 'public',
    responses: { 204: { description: 'Taken' }, ...errorResponses(400, 401, 404) },
    async handle({ params, ctx }) {
      await deps.hooks.take({
        token: params.token ?? '',
        body: rawBodyOf(ctx),
        signature: ctx.get('x-signature') || undefined,
        timestamp: ctx.get('x-timestamp') || undefined,
      });
      return { status: 204 };
    },
  });
}

/** The exact text the phone signed (the body parser keeps it). */
function rawBodyOf(ctx: Koa.Context): string {
  return (ctx.request as Koa.Request & { rawBody?: string }).rawBody ?? '';
}
