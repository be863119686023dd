/**
 * The part of the `smpp` package (farhadi/node-smpp, lib/defs.js and lib/pdu.js) we use: its
 * PDU encoder and the tables that describe each command's fields and each TLV.
 */
declare module 'smpp' {
  interface FieldType {
    read(buffer: Buffer, offset: number, length?: number): unknown;
    size(value: unknown): number;
  }
  interface CommandDefinition {
    command: string;
    id: number;
    params?: Record<string, { type: FieldType }>;
  }
  interface TlvDefinition {
    tag: string;
    id: number;
    type: FieldType;
    multiple?: boolean;
  }
  class PDU {
    command: string;
    sequence_number: number;
    constructor(command: string, options?: Record<string, unknown>);
    toBuffer(): Buffer;
    static maxLength: number;
  }
  /** The package's client session (lib/smpp.js), which the tests use as a second real client. */
  interface ClientPdu {
    command: string;
    command_status: number;
    sequence_number: number;
    [field: string]: unknown;
  }
  interface Session {
    on(event: 'error' | 'close' | 'connect' | 'pdu', listener: (value: ClientPdu & Error) => void): this;
    on(event: string, listener: (pdu: ClientPdu) => void): this;
    send(pdu: PDU, responseCallback?: (pdu: ClientPdu) => void): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    [command: string]: unknown;
  }
  const smpp: {
    connect(options: { url: string }, listener?: () => void): Session;
    PDU: typeof PDU;
    commands: Record<string, CommandDefinition>;
    commandsById: Record<number, CommandDefinition>;
    tlvsById: Record<number, TlvDefinition>;
  };
  export default smpp;
}
