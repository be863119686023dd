/** Typed access to test/fixtures/pdu/pdu-vectors.json (see that folder's README for sources). */
import { readFileSync } from 'node:fs';

export interface VectorAddress {
  number: string;
  toa: string;
  type_of_number: string;
  numbering_plan: number;
}

export interface VectorUdh {
  hex: string;
  elements: { iei: string; data: string }[];
  concat?: { reference: number; total: number; sequence: number; reference_bits: 8 | 16 };
  ports?: { destination: number; source: number; bits: 8 | 16 };
}

export interface PduVector {
  id: string;
  pdu: string;
  tpdu_length: number;
  type: 'SMS-DELIVER' | 'SMS-SUBMIT' | 'SMS-STATUS-REPORT';
  smsc: VectorAddress | null;
  first_octet: string;
  originator?: VectorAddress;
  destination?: VectorAddress;
  recipient?: VectorAddress;
  message_reference?: number;
  scts?: string;
  discharge_time?: string;
  status?: string;
  flags: Record<string, boolean | string>;
  pid?: string;
  dcs?: string;
  encoding?: 'gsm7' | 'ucs2' | '8bit';
  message_class?: number | null;
  udh?: VectorUdh;
  validity_period?: { format: 'relative'; tp_vp: number } | { format: 'absolute'; time: string };
  text?: string;
  text_prefix?: string;
  data_hex?: string;
  quirk?: boolean;
  notes?: string;
  cross_check: Record<string, string>;
}

export function loadPduVectors(): PduVector[] {
  const url = new URL('../fixtures/pdu/pdu-vectors.json', import.meta.url);
  const parsed = JSON.parse(readFileSync(url, 'utf8')) as { count: number; vectors: PduVector[] };
  return parsed.vectors;
}

export function hexOf(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
}
