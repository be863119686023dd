import { SendingPause, type SendingPauseDocument } from '../services/scheduler/sendingPause.js';
import type { CompositionContext } from './context.js';

/** The pause as a person left it (none in a new data directory). */
export async function openSendingPause({
  storage,
  events,
  logger,
}: Pick<CompositionContext, 'storage' | 'events' | 'logger'>): Promise<SendingPause> {
  const document = await storage.openDocument<SendingPauseDocument>('sending-pause', { paused: false });
  if (document.data.paused) {
    logger.warn('sending stays paused, as a person left it: resume it in the window or the tray');
  }
  return new SendingPause(document, events, logger);
}
