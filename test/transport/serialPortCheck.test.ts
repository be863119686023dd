import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSerialPortPath } from '../../server/devices/transport/serialPortCheck.js';
import { ErrorCode, GatewayError } from '../../server/errors/gatewayError.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { createPtyPair, type PtyPair } from '../support/pty.js';

/** Security review 7: POST /gateway/v1/modems once opened any path read-write (/etc/shadow). */
let scratch: string;
let pty: PtyPair;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'serial-check-'));
  await writeFile(join(scratch, 'file'), 'not a modem');
  pty = await createPtyPair();
});
afterAll(async () => {
  await pty.close();
  await rm(scratch, { recursive: true, force: true });
});

async function refusal(path: string, platform: NodeJS.Platform = 'linux'): Promise<GatewayError> {
  const error = await checkSerialPortPath(path, { platform, listPorts: async () => [] }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

describe('checkSerialPortPath', () => {
  it('refuses files, directories, missing paths and non-terminal devices with one and the same error', async () => {
    const errors = await Promise.all(
      [join(scratch, 'file'), scratch, join(scratch, 'missing'), '/dev/null', '/etc/passwd', 'COM3'].map(
        (path) => refusal(path),
      ),
    );
    for (const error of errors) {
      expect(error.code).toBe(ErrorCode.ValidationFailed);
      expect(error.field).toBe('path');
      expect(error.message).toBe(errors[0]?.message);
    }
  });

  it('accepts a terminal device (a pty), a port the discovery lists and COMn on Windows', async () => {
    await expect(
      checkSerialPortPath(pty.hostPath, { platform: 'linux', listPorts: async () => [] }),
    ).resolves.toBe(undefined);
    const listed = async () => [{ path: '/dev/ttyUSB7' }];
    await expect(checkSerialPortPath('/dev/ttyUSB7', { platform: 'linux', listPorts: listed })).resolves.toBe(
      undefined,
    );
    await expect(
      checkSerialPortPath('COM12', { platform: 'win32', listPorts: async () => [] }),
    ).resolves.toBe(undefined);
    expect((await refusal('C:\\Windows\\win.ini', 'win32')).field).toBe('path');
  });
});

describe('POST /gateway/v1/modems', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGatewayHarness();
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('refuses a path that is no serial port, and keeps no device for it', async () => {
    const before = await gateway.api.get<unknown[]>('/devices');
    for (const path of ['/etc/passwd', join(scratch, 'missing')]) {
      const response = await gateway.api.post('/gateway/v1/modems', { path });
      expect(response.status).toBe(400);
      expect(response.text).not.toMatch(/ENOENT|EACCES|no such file/i);
    }
    const after = await gateway.api.get<unknown[]>('/devices');
    expect(after.body).toEqual(before.body);
  });
});
