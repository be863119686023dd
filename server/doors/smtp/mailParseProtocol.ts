/** What a mail-parsing thread (mailParseThread.ts) is sent and answers. */
export interface MailParseRequest {
  /** The whole mail as received (RFC 5322), headers and body. */
  bytes: Uint8Array;
  /** An HTML-only mail's HTML longer than this is not turned into text (mailparser's `maxHtmlLengthToParse`). */
  maxHtmlChars: number;
}

export type MailParseReply =
  | {
      kind: 'parsed';
      subject?: string;
      text?: string;
      messageId?: string;
      /** Why an HTML part was not turned into text (mailparser's `textConversionError`). */
      htmlNotRead?: string;
    }
  | { kind: 'failed'; message: string };
