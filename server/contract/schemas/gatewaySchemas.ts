import { z } from 'zod';
import { SmsServicePreferences } from '../domain/smsServicePreference.js';
import { isTcpAddress, parseTcpAddress, tcpAddressForm } from '../domain/tcpAddress.js';
import { queryInteger } from './primitives.js';

/** Request bodies and queries of our /gateway/v1 extension routes (server/doors/http/routes/gatewayRoutes.ts). */

/** GET /gateway/v1/stats/daily query. */
export const dailyStatsQuerySchema = z.object({ days: queryInteger(1, 366).default(14) });

/**
 * POST /gateway/v1/modems body. A `tcp://` path must be a whole `tcp://host:port`; any other path
 * is checked against this computer's serial ports when the modem is added (serialPortCheck.ts).
 */
export const serialModemSchema = z.object({
  path: z
    .string()
    .min(1)
    .max(256)
    .refine((path) => !isTcpAddress(path) || parseTcpAddress(path) !== undefined, {
      message: `must be ${tcpAddressForm}: a host name or IP address and a port 1..65535, nothing else`,
    }),
  baudRate: z.number().int().min(300).max(4_000_000).default(115_200),
});

/** A HiLink stick's web API: scheme and host (and port), nothing after them. */
export const hilinkUrlPattern = /^https?:\/\/[^/\s]+\/?$/;

/** POST /gateway/v1/hilink body. */
export const hilinkSchema = z.object({
  url: z.string().regex(hilinkUrlPattern, 'must be a URL like http://192.168.8.1'),
});

/** POST /gateway/v1/devices/:id/pin body. */
export const simPinSchema = z.object({ pin: z.string().regex(/^\d{4,8}$/, 'must be 4 to 8 digits') });

/** POST /gateway/v1/devices/:id/sms-service body. */
export const smsServiceSchema = z.object({ service: z.enum(SmsServicePreferences) });

/** PATCH /gateway/v1/devices/:id body. */
export const MaxDeviceNameLength = 64;
export const deviceNameSchema = z.object({ name: z.string().trim().min(1).max(MaxDeviceNameLength) });

/**
 * A simulated phone's number, as the simulator's forms send it (their digits, with a leading +
 * if typed): what the simulated network takes as an address.
 */
export const simulatedPhoneNumberSchema = z
  .string()
  .regex(/^\+?\d{3,15}$/, 'must be a phone number such as +15551234567');

/** POST /gateway/v1/devices/:id/simulate-incoming body. */
export const simulatedIncomingSchema = z.object({
  sender: simulatedPhoneNumberSchema,
  text: z.string().min(1).max(1_600),
});

/** POST /gateway/v1/devices/:id/simulate-failure body: the next `count` sends fail (to one number if given). */
export const simulatedFailureSchema = z.object({
  /** A +CMS ERROR code (TS 27.005 §3.2.5; 1–127 are the network's RP-causes, TS 24.011 Annex E). */
  cmsCode: z.number().int().min(1).max(511),
  count: z.number().int().min(1).max(100).default(1),
  phoneNumber: simulatedPhoneNumberSchema.optional(),
});

/** GET /gateway/v1/devices/:id/at-log query. */
export const atLogQuerySchema = z.object({ limit: queryInteger(1, 500).default(200) });

/** GET /gateway/v1/webhooks/deliveries query. */
export const deliveryListQuerySchema = z.object({
  webhookId: z.string().max(64).optional(),
  state: z.enum(['pending', 'delivered', 'failed']).optional(),
  limit: queryInteger(1, 500).default(100),
});

/** POST /gateway/v1/sending body. */
export const sendingPauseSchema = z.object({ paused: z.boolean() });

/** PUT /gateway/v1/credentials body. */
export const credentialsSchema = z.object({
  // RFC 7617 §2: the user-id cannot contain a colon.
  username: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[^:]+$/, 'must not contain ":"'),
  password: z.string().min(8).max(256),
  /** A token is not enough to change the login (server/services/auth/loginChange.ts). */
  currentPassword: z.string().min(1).max(256),
});
