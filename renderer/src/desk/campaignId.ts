/** The alphabet of the gateway's own ids (server/services/messages/messageId.ts), all of it URL-safe. */
const alphabet = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';

/**
 * A fresh id for a campaign the window is about to start: 21 random characters (126 bits), as
 * long as the gateway's own, so a retry under it can only ever find this window's campaign.
 */
export function newCampaignId(): string {
  // 64 symbols: the low six bits of each byte index the alphabet without bias.
  return Array.from(crypto.getRandomValues(new Uint8Array(21)), (byte) => alphabet[byte & 63]).join('');
}
