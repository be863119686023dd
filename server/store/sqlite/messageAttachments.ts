import type { MmsAttachment } from '../../contract/domain/message.js';
import type { Database, Statement } from './sqlite.js';

interface Row {
  message_id: string;
  position: number;
  content_type: string;
  name: string | null;
  data: Uint8Array;
}

/**
 * The bytes of MMS attachments (schema step "MMS attachments"), one row per attachment beside
 * its message's row: the queue's reads never carry them, and the phone is handed them when it
 * takes the message. Rows are written inside the commit that stores the message.
 */
export class MessageAttachmentRows {
  private readonly insertRow: Statement<Row>;
  private readonly selectRows: Statement<[string], Row>;

  constructor(db: Database) {
    this.insertRow = db.prepare(
      `INSERT INTO message_attachments (message_id, position, content_type, name, data)
       VALUES (@message_id, @position, @content_type, @name, @data)`,
    );
    this.selectRows = db.prepare('SELECT * FROM message_attachments WHERE message_id = ? ORDER BY position');
  }

  /** Call inside a commit's write. */
  insert(messageId: string, attachments: readonly MmsAttachment[]): void {
    for (const [position, attachment] of attachments.entries()) {
      this.insertRow.run({
        message_id: messageId,
        position,
        content_type: attachment.contentType,
        name: attachment.name ?? null,
        data: new Uint8Array(Buffer.from(attachment.data, 'base64')),
      });
    }
  }

  /** The message's attachments in order, with their bytes as Base64. */
  read(messageId: string): MmsAttachment[] {
    return this.selectRows.all(messageId).map((row) => ({
      contentType: row.content_type,
      ...(row.name === null ? {} : { name: row.name }),
      size: row.data.byteLength,
      data: Buffer.from(row.data).toString('base64'),
    }));
  }
}
