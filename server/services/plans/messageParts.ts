import type { MessageContent } from '../../contract/domain/message.js';
import { DataLimits, planText } from '../../contract/pdu/segmenter.js';

/** How many SMS parts one recipient of this content costs, as the modem will send it. */
export function partsPerRecipient(content: MessageContent): number {
  if (content.kind === 'text') return Math.max(1, planText(content.text).parts);
  // An MMS goes as one message, whatever it holds.
  if (content.kind === 'mms') return 1;
  const octets = Buffer.byteLength(content.data, 'base64');
  return octets <= DataLimits.single ? 1 : Math.ceil(octets / DataLimits.multipart);
}
