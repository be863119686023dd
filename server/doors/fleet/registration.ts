import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../../logging/logger.js';
import type { SettingsDocument } from '../../services/settings/settingsService.js';
import type { MobileSimCard } from './mobileApi.js';
import { authorizationFor, parseRegistrationCredential } from './serverAddress.js';
import type { ServerClient } from './serverClient.js';

/**
 * What registering gave us, kept in `fleet-device.json` (0600, like every document of the data
 * directory); the device token never appears in GET /settings. `serverUrl` and
 * `credentialDigest` say which server and credential it came from: when the user names another
 * one, the gateway registers again — and only then, as the app does.
 */
export interface FleetDevice {
  serverUrl: string;
  credentialDigest: string;
  id: string;
  token: string;
  login: string;
}

export interface FleetDeviceDocument {
  device?: FleetDevice;
}

/** One-way: tells a changed credential without storing it twice. */
export function credentialDigest(credential: string): string {
  return createHash('sha256').update(credential).digest('hex');
}

export interface Registration {
  device: FleetDevice;
  /** Only when this call registered and the server created a user: its password, shown once. */
  createdUserPassword?: string;
  /** Only when this call registered: the SIM cards the registration told the server. */
  sentSimCards?: MobileSimCard[];
}

/**
 * The device registration for this server and credential: the stored one, or a new one from
 * `POST /device`. A password the server made for a new user is handed back, never stored or
 * logged: the caller shows it once (the server never shows it again either).
 */
export async function ensureRegistered(options: {
  document: SettingsDocument<FleetDeviceDocument>;
  client: ServerClient;
  serverUrl: string;
  credential: string;
  /** Sent with a new registration, as the app's `DeviceRegisterRequest` does. */
  simCards: MobileSimCard[];
  logger: Logger;
}): Promise<Registration> {
  const { document, serverUrl, credential, simCards, logger } = options;
  const digest = credentialDigest(credential);
  const stored = document.data.device;
  if (stored && stored.serverUrl === serverUrl && stored.credentialDigest === digest)
    return { device: stored };

  const kind = parseRegistrationCredential(credential);
  const registered = await options.client.register(authorizationFor(kind), {
    name: `Desktop SMS Gateway on ${hostname()}`,
    pushToken: null,
    simCards,
  });
  const device: FleetDevice = {
    serverUrl,
    credentialDigest: digest,
    id: registered.id,
    token: registered.token,
    login: registered.login,
  };
  await document.update((data) => {
    data.device = device;
  });
  logger.info('registered with the private server', { serverUrl, deviceId: device.id, login: device.login });
  if (registered.password === undefined) return { device, sentSimCards: simCards };
  logger.warn(
    `The private server created the user ${registered.login} for this gateway; its password is shown ` +
      'once in the Fleet section of Settings (GET /gateway/v1/status).',
  );
  return { device, createdUserPassword: registered.password, sentSimCards: simCards };
}
