import type { Logger } from '../../logging/logger.js';
import type { Document } from '../../store/documentStore.js';
import type { EventBus } from '../events/eventBus.js';

export interface SendingPauseDocument {
  paused: boolean;
}

/**
 * Whether a person paused sending (the window, the tray, `POST /gateway/v1/sending`). A pause is
 * a person's decision, so it is kept in the data directory: a restart, a crash or a reboot does
 * not lift it, only a person does. Nothing is handed to a modem meanwhile (`SendingPolicy`).
 */
export class SendingPause {
  constructor(
    private readonly document: Document<SendingPauseDocument>,
    private readonly events: EventBus,
    private readonly logger: Logger,
  ) {}

  get paused(): boolean {
    return this.document.data.paused;
  }

  /** Applies at once (the scheduler's next look sees it), tells the tray, resolves once on disk. */
  set(paused: boolean): Promise<void> {
    const saved = this.document.update((data) => {
      data.paused = paused;
    });
    this.events.emit('sending:paused', { paused });
    this.logger.info(paused ? 'sending paused by the user' : 'sending resumed');
    return saved;
  }
}
