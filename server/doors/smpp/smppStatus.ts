/**
 * command_status values we answer (SMPP 3.4 §5.1.3, Table 5-2). ESME_RINVDCS is SMPP 5.0's
 * (§4.7.6): 3.4 has no code for an unsupported data_coding, and clients of both know it.
 */
export const SmppStatus = {
  ESME_ROK: 0x0000,
  ESME_RINVMSGLEN: 0x0001,
  ESME_RINVCMDLEN: 0x0002,
  ESME_RINVCMDID: 0x0003,
  ESME_RINVBNDSTS: 0x0004,
  ESME_RALYBND: 0x0005,
  ESME_RSYSERR: 0x0008,
  ESME_RINVDSTADR: 0x000b,
  ESME_RINVMSGID: 0x000c,
  ESME_RBINDFAIL: 0x000d,
  ESME_RINVPASWD: 0x000e,
  ESME_RCANCELFAIL: 0x0011,
  ESME_RMSGQFUL: 0x0014,
  ESME_RINVESMCLASS: 0x0043,
  ESME_RSUBMITFAIL: 0x0045,
  ESME_RTHROTTLED: 0x0058,
  ESME_RINVSCHED: 0x0061,
  ESME_RINVEXPIRY: 0x0062,
  ESME_RX_T_APPN: 0x0064,
  ESME_RQUERYFAIL: 0x0067,
  ESME_RINVTLVVAL: 0x00c4,
  ESME_RMISSINGTLV: 0x00c3,
  ESME_RINVDCS: 0x0104,
} as const;

/** §5.2.28 message_state, the state a query_sm or a delivery receipt reports. */
export const MessageStateTlv = {
  ENROUTE: 1,
  DELIVERED: 2,
  EXPIRED: 3,
  DELETED: 4,
  UNDELIVERABLE: 5,
  ACCEPTED: 6,
  UNKNOWN: 7,
  REJECTED: 8,
} as const;
