/**
 * Pure SMS PDU codec (3GPP TS 23.040 / TS 23.038). No Node APIs: the renderer imports
 * `planText` for its character counter.
 */
export { decodePdu } from './decodePdu.js';
export { encodeDeliver } from './deliver.js';
export { planText } from './segmenter.js';
export { encodeStatusReport } from './statusReport.js';
export { encodeSubmit } from './submit.js';
export type {
  Address,
  Concatenation,
  DecodedDeliver,
  DecodedPdu,
  DecodedStatusReport,
  DecodedSubmit,
  DecodeOptions,
  DeliverOptions,
  EncodedPdu,
  EncodedSubmitPart,
  HeaderElement,
  Ports,
  StatusReportOptions,
  SubmitContent,
  SubmitOptions,
  TextEncoding,
  TextPlan,
  Timestamp,
  UserData,
  Validity,
} from './types.js';
