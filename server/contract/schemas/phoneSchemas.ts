import { z } from 'zod';

/**
 * The Android phone routes' shapes (server/devices/phone/phoneRoutes.ts): a phone's pacing and its
 * ranges, the USB listing, the request that adds a phone. Pure, so the UI takes its types and
 * the pacing form its bounds from here.
 */

/** The ranges of `phone/phonePacing.ts` PhonePacingSettings, which the API enforces and the form shows. */
export const PhonePacingRanges = {
  minIntervalSeconds: { min: 0, max: 3_600 },
  maxPerPeriod: { min: 1, max: 100_000 },
  periodMinutes: { min: 1, max: 1_440 },
  maxInFlight: { min: 1, max: 500 },
} as const;

function inRange(range: { min: number; max: number }) {
  return z.number().int().min(range.min).max(range.max);
}

/** `phone/phonePacing.ts` PhonePacingSettings, with its ranges. */
const pacingSchema = z.object({
  minIntervalSeconds: inRange(PhonePacingRanges.minIntervalSeconds),
  /** null (left out of answers): no cap. */
  maxPerPeriod: inRange(PhonePacingRanges.maxPerPeriod).nullable(),
  periodMinutes: inRange(PhonePacingRanges.periodMinutes),
  maxInFlight: inRange(PhonePacingRanges.maxInFlight),
});
export const pacingPatchSchema = pacingSchema.partial();
export const phoneViewSchema = z.object({ deviceId: z.string(), pacing: pacingSchema });

const usbPhoneSchema = z.object({
  serial: z.string(),
  /** adb's word: "device" (usable), "unauthorized", "offline", "no permissions". */
  state: z.string(),
  model: z.string().optional(),
  /** What to do on the phone when adb cannot use it. */
  advice: z.string().optional(),
  inUse: z.boolean(),
});
export const usbListingSchema = z.object({
  adb: z.enum(['found', 'unavailable']),
  /** Why adb could not be run (not installed, no --adb). */
  detail: z.string().optional(),
  phones: z.array(usbPhoneSchema),
});
export type UsbPhoneListing = z.output<typeof usbListingSchema>;

export const newPhoneSchema = z
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
    /** Absent: the defaults (30 per 30 minutes, as Android allows an app by default). */
    pacing: pacingPatchSchema.optional(),
  })
  .refine((body) => (body.url === undefined) !== (body.serial === undefined), {
    message: 'give either url (Wi-Fi) or serial (USB)',
    path: ['url'],
  });
