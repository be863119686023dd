import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes } from 'node:crypto';
import { encryptedFieldScheme, type MessageRecord } from '../../contract/domain/message.js';
import { dataPayloadProblem } from '../../contract/schemas/dataPayload.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

/**
 * End-to-end encryption of the upstream project (docs/decisions.md#end-to-end-encryption), in a
 * PHC-like string: `$aes-256-cbc/pbkdf2-sha1$i=<iterations>$<base64 salt>$<base64 ciphertext>`. Key
 * = PBKDF2-HMAC-SHA1(passphrase, salt, iterations, 32 bytes); AES-256-CBC with PKCS#7 padding and
 * the salt doubling as the IV, as the upstream Android app and its clients do. The scheme's name is
 * `encryptedFieldScheme` (server/contract/domain/message.ts).
 */

const KEY_BYTES = 32;
/** AES block size: the salt is used as the CBC IV, so it must be exactly one block. */
const SALT_BYTES = 16;
/** The upstream clients' default and recommended iteration count. */
export const DEFAULT_ITERATIONS = 75_000;
/** Refuses absurd counts a hostile value could use to burn CPU on every decrypt. */
const MAX_ITERATIONS = 10_000_000;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export type DecryptionFailure = 'bad-format' | 'wrong-passphrase' | 'no-passphrase';

/**
 * A field that could not be decrypted. `reason` tells a malformed value (the client's bug) from a
 * well-formed one the configured passphrase does not open (a settings mismatch).
 */
export class DecryptionError extends GatewayError {
  constructor(
    readonly reason: DecryptionFailure,
    message: string,
  ) {
    super(ErrorCode.DecryptionFailed, message, { field: 'isEncrypted' });
  }
}

export function encryptField(
  text: string,
  passphrase: string,
  iterations: number = DEFAULT_ITERATIONS,
): string {
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > MAX_ITERATIONS) {
    throw new GatewayError(ErrorCode.ValidationFailed, `iterations must be 1..${MAX_ITERATIONS}`, {
      field: 'iterations',
    });
  }
  const salt = randomBytes(SALT_BYTES);
  const key = pbkdf2Sync(passphrase, salt, iterations, KEY_BYTES, 'sha1');
  const cipher = createCipheriv('aes-256-cbc', key, salt);
  const ciphertext = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return `$${encryptedFieldScheme}$i=${iterations}$${salt.toString('base64')}$${ciphertext.toString('base64')}`;
}

export function decryptField(value: string, passphrase: string): string {
  const { iterations, salt, ciphertext } = parseField(value);
  const key = pbkdf2Sync(passphrase, salt, iterations, KEY_BYTES, 'sha1');
  let plain: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-cbc', key, salt);
    plain = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    // A wrong key shows as bad PKCS#7 padding in the last block.
    throw new DecryptionError('wrong-passphrase', 'the passphrase does not decrypt this message');
  }
  try {
    // About 1 in 256 wrong keys still yield valid padding; the garbage then fails as UTF-8.
    return new TextDecoder('utf-8', { fatal: true }).decode(plain);
  } catch {
    throw new DecryptionError('wrong-passphrase', 'the passphrase does not decrypt this message');
  }
}

/** Decrypt first, then validate: only the plaintext of a data message is Base64. */
function decryptedData(value: string, passphrase: string): string {
  const data = decryptField(value, passphrase);
  const problem = dataPayloadProblem(data);
  if (problem) throw new DecryptionError('bad-format', `decrypted dataMessage.data ${problem}`);
  return data;
}

/** A plain copy of an encrypted message: its text (or data) and every phone number. */
export function decryptMessage(record: MessageRecord, passphrase: string): MessageRecord {
  // An MMS is never encrypted (messageSchemas.ts refuses it).
  if (!record.isEncrypted || record.content.kind === 'mms') return record;
  const content: MessageRecord['content'] =
    record.content.kind === 'text'
      ? { kind: 'text', text: decryptField(record.content.text, passphrase) }
      : { kind: 'data', data: decryptedData(record.content.data, passphrase), port: record.content.port };
  return {
    ...record,
    content,
    recipients: record.recipients.map((recipient) => ({
      ...recipient,
      phoneNumber: decryptField(recipient.phoneNumber, passphrase),
    })),
  };
}

/**
 * The scheduler's `decrypt` dependency: reads `encryption.passphrase` on every call, so a changed
 * setting applies at once. An encrypted message while no passphrase is set is refused (never sent
 * as ciphertext); a plain message passes through unchanged.
 */
export function createMessageDecryptor(
  passphrase: () => string | null | undefined,
): (record: MessageRecord) => MessageRecord {
  return (record) => {
    if (!record.isEncrypted) return record;
    const current = passphrase();
    if (!current) {
      throw new DecryptionError(
        'no-passphrase',
        'the message is encrypted but encryption.passphrase is not set',
      );
    }
    return decryptMessage(record, current);
  };
}

function parseField(value: string): { iterations: number; salt: Buffer; ciphertext: Buffer } {
  const parts = value.split('$');
  // '' before the leading '$', the scheme, the parameters, the salt, the ciphertext.
  const [empty, scheme, parameters, salt64, ciphertext64] = parts;
  if (parts.length !== 5 || empty !== '' || scheme !== encryptedFieldScheme) {
    throw new DecryptionError('bad-format', `not a "$${encryptedFieldScheme}$…" value`);
  }
  const iterationsMatch = /^i=(\d{1,9})$/.exec(parameters ?? '');
  const iterations = Number(iterationsMatch?.[1]);
  if (!iterationsMatch || iterations < 1 || iterations > MAX_ITERATIONS) {
    throw new DecryptionError('bad-format', `parameters must be "i=<iterations>" with 1..${MAX_ITERATIONS}`);
  }
  if (!BASE64.test(salt64 ?? '') || !BASE64.test(ciphertext64 ?? '')) {
    throw new DecryptionError('bad-format', 'salt and ciphertext must be Base64');
  }
  const salt = Buffer.from(salt64 ?? '', 'base64');
  const ciphertext = Buffer.from(ciphertext64 ?? '', 'base64');
  if (salt.length !== SALT_BYTES) {
    throw new DecryptionError('bad-format', `salt must be ${SALT_BYTES} bytes (it is the AES-CBC IV)`);
  }
  if (ciphertext.length === 0 || ciphertext.length % SALT_BYTES !== 0) {
    throw new DecryptionError('bad-format', 'ciphertext must be whole AES blocks');
  }
  return { iterations, salt, ciphertext };
}
