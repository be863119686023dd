import { generateMessageId } from '../messages/messageId.js';
import type { Storage } from '../store/storage.js';

interface IdentityDocumentData {
  deviceId?: string;
}

/**
 * The gateway's own device id: what a message no modem has taken yet names as its `deviceId`.
 * client-rs `src/types/message.rs` MessageState requires the field and the app always sends
 * it, so a Pending message needs one before any modem is chosen. Generated once per data
 * directory in upstream's id shape, and kept, so a client sees the same id across restarts.
 */
export async function openGatewayDeviceId(storage: Storage): Promise<string> {
  const document = await storage.openDocument<IdentityDocumentData>('identity', {});
  const stored = document.data.deviceId;
  if (stored !== undefined) return stored;
  const deviceId = generateMessageId();
  await document.update((data) => {
    data.deviceId = deviceId;
  });
  return deviceId;
}
