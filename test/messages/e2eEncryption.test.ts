import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../server/contract/domain/message.js';
import { isEncryptedField } from '../../server/contract/domain/message.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';
import {
  createMessageDecryptor,
  DecryptionError,
  decryptField,
  decryptMessage,
  encryptField,
} from '../../server/services/messages/e2eEncryption.js';

/** From the upstream Python client's tests (android-sms-gateway client-py, tests/test_encryption.py). */
const UPSTREAM_VECTOR = {
  passphrase: 'passphrase',
  value: '$aes-256-cbc/pbkdf2-sha1$i=75000$obSTW6ittQvTtdAxonQKIw==$g3QFAC9CtBcPxoKlouqsyQ==',
  plain: 'hello',
};

/**
 * Derived with OpenSSL 3.0 (salt 000102…0f, 1000 iterations):
 *   KEY=$(openssl kdf -keylen 32 -kdfopt digest:SHA1 -kdfopt pass:'correct horse' \
 *         -kdfopt hexsalt:000102030405060708090a0b0c0d0e0f -kdfopt iter:1000 PBKDF2 | tr -d :)
 *   printf 'Привет 👋 +15551234567' | openssl enc -aes-256-cbc -K $KEY \
 *         -iv 000102030405060708090a0b0c0d0e0f -base64 -A
 */
const OPENSSL_VECTOR = {
  passphrase: 'correct horse',
  value:
    '$aes-256-cbc/pbkdf2-sha1$i=1000$AAECAwQFBgcICQoLDA0ODw==$m3kC01LDYnVnPZ3DLLd6fnjemvUbqdeemgFB9BiPXIg=',
  plain: 'Привет 👋 +15551234567',
};

function failure(run: () => unknown): DecryptionError {
  try {
    run();
  } catch (error) {
    if (error instanceof DecryptionError) return error;
    throw error;
  }
  throw new Error('expected a DecryptionError');
}

describe('end-to-end encryption', () => {
  it('decrypts the upstream client test vector', () => {
    expect(decryptField(UPSTREAM_VECTOR.value, UPSTREAM_VECTOR.passphrase)).toBe(UPSTREAM_VECTOR.plain);
  });

  it('decrypts a vector derived with openssl, including non-Latin text and emoji', () => {
    expect(decryptField(OPENSSL_VECTOR.value, OPENSSL_VECTOR.passphrase)).toBe(OPENSSL_VECTOR.plain);
  });

  it('round-trips text through encryptField and decryptField with a fresh salt each time', () => {
    const first = encryptField('Meet at 10 ✔', 'secret', 1000);
    const second = encryptField('Meet at 10 ✔', 'secret', 1000);
    expect(first).not.toBe(second);
    expect(first).toMatch(/^\$aes-256-cbc\/pbkdf2-sha1\$i=1000\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/=]+$/);
    expect(isEncryptedField(first)).toBe(true);
    expect(decryptField(first, 'secret')).toBe('Meet at 10 ✔');
  });

  it('uses 75,000 iterations by default, as the upstream clients do', () => {
    expect(encryptField('x', 'secret')).toMatch(/^\$aes-256-cbc\/pbkdf2-sha1\$i=75000\$/);
  });

  it('refuses a wrong passphrase with a typed error', () => {
    const error = failure(() => decryptField(UPSTREAM_VECTOR.value, 'not the passphrase'));
    expect(error.code).toBe(ErrorCode.DecryptionFailed);
    expect(error.reason).toBe('wrong-passphrase');
  });

  it('never returns garbage for any of many wrong passphrases', () => {
    const value = encryptField('hello', 'right', 1);
    for (let attempt = 0; attempt < 300; attempt++) {
      expect(failure(() => decryptField(value, `wrong-${attempt}`)).reason).toBe('wrong-passphrase');
    }
  });

  it.each([
    ['plain text', 'hello'],
    ['another scheme', '$aes-128-gcm/pbkdf2-sha1$i=1000$AAECAwQFBgcICQoLDA0ODw==$m3kC01LDYnVnPZ3DLLd6fg=='],
    [
      'missing iterations',
      '$aes-256-cbc/pbkdf2-sha1$n=1000$AAECAwQFBgcICQoLDA0ODw==$m3kC01LDYnVnPZ3DLLd6fg==',
    ],
    ['zero iterations', '$aes-256-cbc/pbkdf2-sha1$i=0$AAECAwQFBgcICQoLDA0ODw==$m3kC01LDYnVnPZ3DLLd6fg=='],
    ['a short salt', '$aes-256-cbc/pbkdf2-sha1$i=1000$AAECAwQFBgc=$m3kC01LDYnVnPZ3DLLd6fg=='],
    ['a partial block', '$aes-256-cbc/pbkdf2-sha1$i=1000$AAECAwQFBgcICQoLDA0ODw==$m3kC01LD'],
    ['non-Base64 ciphertext', '$aes-256-cbc/pbkdf2-sha1$i=1000$AAECAwQFBgcICQoLDA0ODw==$m3kC!!'],
    ['an extra field', `${OPENSSL_VECTOR.value}$more`],
  ])('refuses %s as a bad format', (_name, value) => {
    const error = failure(() => decryptField(value, 'correct horse'));
    expect(error.code).toBe(ErrorCode.DecryptionFailed);
    expect(error.reason).toBe('bad-format');
  });

  it('decrypts the text and every phone number of an encrypted message', () => {
    const passphrase = 'pass';
    const record: MessageRecord = {
      id: 'm',
      content: { kind: 'text', text: encryptField('hi there', passphrase, 10) },
      recipients: [
        { phoneNumber: encryptField('+15550001', passphrase, 10), state: 'Pending' },
        { phoneNumber: encryptField('+15550002', passphrase, 10), state: 'Pending' },
      ],
      withDeliveryReport: false,
      priority: 0,
      isEncrypted: true,
      createdAt: 0,
      sequence: 1,
      states: { Pending: 0 },
      state: 'Pending',
    };
    const plain = decryptMessage(record, passphrase);
    expect(plain.content).toEqual({ kind: 'text', text: 'hi there' });
    expect(plain.recipients.map((recipient) => recipient.phoneNumber)).toEqual(['+15550001', '+15550002']);
    expect(record.recipients[0]?.phoneNumber).not.toBe('+15550001');
  });

  it('decrypts the data of an encrypted data message and keeps its port', () => {
    const record: MessageRecord = {
      id: 'd',
      content: { kind: 'data', data: encryptField('AQID', 'pass', 10), port: 53739 },
      recipients: [{ phoneNumber: encryptField('+15550001', 'pass', 10), state: 'Pending' }],
      withDeliveryReport: false,
      priority: 0,
      isEncrypted: true,
      createdAt: 0,
      sequence: 1,
      states: { Pending: 0 },
      state: 'Pending',
    };
    expect(decryptMessage(record, 'pass').content).toEqual({ kind: 'data', data: 'AQID', port: 53739 });
    // Decrypt first, then validate: a plaintext that is not Base64 is refused only now.
    const notBase64 = {
      ...record,
      content: { kind: 'data' as const, data: encryptField('not base64!', 'pass', 10), port: 1 },
    };
    expect(failure(() => decryptMessage(notBase64, 'pass')).reason).toBe('bad-format');
  });

  it('returns a message that is not encrypted unchanged', () => {
    const record = {
      id: 'p',
      content: { kind: 'text', text: 'plain' },
      recipients: [{ phoneNumber: '+1555', state: 'Pending' }],
      withDeliveryReport: false,
      priority: 0,
      isEncrypted: false,
      createdAt: 0,
      sequence: 1,
      states: {},
      state: 'Pending',
    } satisfies MessageRecord;
    expect(decryptMessage(record, 'any')).toBe(record);
  });
});

describe('message decryptor for the scheduler', () => {
  const encrypted = (passphrase: string): MessageRecord => ({
    id: 'e',
    content: { kind: 'text', text: encryptField('secret text', passphrase, 10) },
    recipients: [{ phoneNumber: encryptField('+15550001', passphrase, 10), state: 'Pending' }],
    withDeliveryReport: false,
    priority: 0,
    isEncrypted: true,
    createdAt: 0,
    sequence: 1,
    states: {},
    state: 'Pending',
  });

  it('decrypts with the passphrase set at the time of the call', () => {
    let setting = 'old';
    const decrypt = createMessageDecryptor(() => setting);
    setting = 'new';
    expect(decrypt(encrypted('new')).content).toEqual({ kind: 'text', text: 'secret text' });
  });

  it('refuses an encrypted message while no passphrase is set', () => {
    const decrypt = createMessageDecryptor(() => null);
    expect(failure(() => decrypt(encrypted('any'))).reason).toBe('no-passphrase');
  });

  it('passes a plain message through without a passphrase', () => {
    const plain = { ...encrypted('x'), isEncrypted: false };
    expect(createMessageDecryptor(() => undefined)(plain)).toBe(plain);
  });
});
