/** The network's answer to one USSD request. */
export interface UssdAnswer {
  /** TS 27.007 §7.15 <m>: 0 done, 1 the network waits for a reply, 2 it ended the session. */
  status: number;
  text: string;
}
