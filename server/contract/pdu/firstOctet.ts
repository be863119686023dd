/** Bits of the TPDU's first octet (TS 23.040 §9.2.3.1–§9.2.3.26). */
export const MessageTypeIndicator = { Deliver: 0, Submit: 1, StatusReport: 2 } as const;

export const FirstOctet = {
  MessageTypeMask: 0x03,
  /** SMS-SUBMIT TP-RD. */
  RejectDuplicates: 0x04,
  /** SMS-DELIVER / STATUS-REPORT TP-MMS; set means NO more messages are waiting. */
  NoMoreMessages: 0x04,
  /** SMS-SUBMIT TP-VPF, two bits. */
  ValidityFormatShift: 3,
  /** TP-SRR in SUBMIT, TP-SRI in DELIVER, TP-SRQ in STATUS-REPORT. */
  StatusReport: 0x20,
  UserDataHeader: 0x40,
  ReplyPath: 0x80,
} as const;
