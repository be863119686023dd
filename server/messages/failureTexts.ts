/**
 * The `error` texts the gateway itself writes on failed recipients (the modem's own texts, such
 * as "+CMS ERROR: 500", pass through as they are). A plain module without Node imports, so the
 * UI can recognise them and say in plain words what happened.
 */

/** A message whose `validUntil` passed before a modem took it. */
export const TTL_EXPIRED_ERROR = 'TTL expired';

/** The gateway stopped mid-send: the PDU may or may not have left the modem. */
export const INTERRUPTED_ERROR = 'interrupted; may have been sent';

/**
 * On a Sent recipient still waiting for its delivery report when the modem's report memory was
 * found full: the report may have been refused. Cleared if a report arrives after all.
 */
export const REPORT_LOST_ERROR = 'delivery report may be lost: SIM storage full';
