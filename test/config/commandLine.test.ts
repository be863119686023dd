import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCommandLine, usage } from '../../server/config/commandLine.js';
import { defaultDataDir } from '../../server/config/options.js';
import { ErrorCode, GatewayError } from '../../server/errors/gatewayError.js';

function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const result = parseCommandLine(argv, env);
  if (result.kind !== 'run') throw new Error(`expected run, got ${result.kind}`);
  return result.options;
}

function configError(argv: string[], env: NodeJS.ProcessEnv = {}): GatewayError {
  try {
    parseCommandLine(argv, env);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a configuration error');
}

describe('command line', () => {
  it('listens on 127.0.0.1:8080 with no modem and probing on by default', () => {
    const options = run([]);
    expect(options.listen).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(options.modems).toEqual([]);
    expect(options.simulatedModems).toBe(0);
    expect(options.probeSerialPorts).toBe(true);
    expect(options.logLevel).toBe('INFO');
  });

  it('parses repeated --modem flags with and without a baud rate', () => {
    const options = run(['--modem', '/dev/ttyUSB2', '--modem', '/dev/pts/7:9600']);
    expect(options.modems).toEqual([
      { path: '/dev/ttyUSB2', baudRate: 115_200 },
      { path: '/dev/pts/7', baudRate: 9600 },
    ]);
  });

  it('takes tcp://host:port as a modem behind a serial server, its port not read as a baud rate', () => {
    const options = run(['--modem', 'tcp://192.168.1.50:4001'], { SMSGW_MODEMS: 'ignored' });
    expect(options.modems).toEqual([{ path: 'tcp://192.168.1.50:4001', baudRate: 115_200 }]);
    expect(run([], { SMSGW_MODEMS: 'tcp://[::1]:2000' }).modems).toEqual([
      { path: 'tcp://[::1]:2000', baudRate: 115_200 },
    ]);
  });

  it('takes an optional count after --simulate', () => {
    expect(run(['--simulate']).simulatedModems).toBe(1);
    expect(run(['--simulate', '3']).simulatedModems).toBe(3);
  });

  it('parses IPv6 and port-only listen addresses', () => {
    expect(run(['--listen', '[::1]:9000']).listen).toEqual({ host: '::1', port: 9000 });
    expect(run(['--listen', '9001']).listen).toEqual({ host: '127.0.0.1', port: 9001 });
  });

  it('reads every environment twin, and a flag wins over its twin', () => {
    const options = run(['--listen', '127.0.0.1:7000'], {
      SMSGW_LISTEN: '0.0.0.0:9999',
      SMSGW_DATA_DIR: '/tmp/gw',
      SMSGW_MODEMS: '/dev/ttyUSB0, /dev/ttyUSB3:57600',
      SMSGW_SIMULATE: '2',
      SMSGW_USERNAME: 'office',
      SMSGW_PASSWORD: 'correct horse',
      SMSGW_SIM_PIN: '1234',
      SMSGW_LOG_LEVEL: 'debug',
      SMSGW_ALLOW_HOSTS: 'gateway.lan',
      SMSGW_CORS_ORIGINS: 'https://crm.example',
      SMSGW_MAX_PENDING: '500',
      SMSGW_DB_THREAD_IDLE_MS: '250',
      SMSGW_RESEND_INTERRUPTED: '1',
      SMSGW_NO_PROBE: 'yes',
    });
    expect(options).toMatchObject({
      listen: { host: '127.0.0.1', port: 7000 },
      dataDir: '/tmp/gw',
      modems: [
        { path: '/dev/ttyUSB0', baudRate: 115_200 },
        { path: '/dev/ttyUSB3', baudRate: 57_600 },
      ],
      simulatedModems: 2,
      username: 'office',
      password: 'correct horse',
      simPin: '1234',
      logLevel: 'DEBUG',
      allowedHosts: ['gateway.lan'],
      corsOrigins: ['https://crm.example'],
      maxPendingMessages: 500,
      dbThreadIdleMs: 250,
      resendInterrupted: true,
      probeSerialPorts: false,
    });
  });

  it('takes a level per module, with or without a level for the rest, from the flag or its twin', () => {
    expect(run(['--log-level', 'at=DEBUG,scheduler=WARN'])).toMatchObject({
      logLevel: 'INFO',
      moduleLogLevels: { at: 'DEBUG', scheduler: 'WARN' },
    });
    expect(run([], { SMSGW_LOG_LEVEL: 'warn, at:/dev/ttyUSB0=debug' })).toMatchObject({
      logLevel: 'WARN',
      moduleLogLevels: { 'at:/dev/ttyUSB0': 'DEBUG' },
    });
    expect(run(['--log-level', 'ERROR']).moduleLogLevels).toEqual({});
  });

  it.each([
    [['--bogus'], undefined],
    [['--listen', 'localhost'], 'listen'],
    [['--listen', '127.0.0.1:70000'], 'listen'],
    [['--modem', ':9600'], 'modem'],
    [['--modem', 'tcp://modem.lan'], 'modem'],
    [['--modem', 'tcp://modem.lan:0'], 'modem'],
    [['--modem', 'tcp://:4001'], 'modem'],
    [['--simulate', 'many'], 'simulate'],
    [['--username', 'office'], 'password'],
    [['--username', 'a:b', '--password', 'long enough'], 'username'],
    [['--username', 'office', '--password', 'short'], 'password'],
    [['--sim-pin', '12'], 'sim-pin'],
    [['--log-level', 'loud'], 'log-level'],
    [['--log-level', 'at=LOUD'], 'log-level'],
    [['--log-level', '=DEBUG'], 'log-level'],
    [['--log-level', 'INFO,DEBUG'], 'log-level'],
    [['--log-level', 'at=DEBUG,,http=INFO'], 'log-level'],
    [['--max-pending', '0'], 'max-pending'],
    [['--db-thread-idle', '10'], 'db-thread-idle'],
    [['--cors-origin', 'crm.example'], 'cors-origin'],
    [['stray'], 'simulate'],
    [['--server-url', 'https://sms.example.com/api/mobile/v1'], 'server-token'],
    [['--server-url', 'http://sms.example.com/api/mobile/v1', '--server-token', 'key'], 'server-url'],
  ])('rejects %j as a configuration error naming %s', (argv, field) => {
    const error = configError(argv);
    expect(error.code).toBe(ErrorCode.ConfigInvalid);
    expect(error.field).toBe(field);
  });

  it('turns fleet mode on with --server-url and --server-token, or their twins; plain http only to loopback', () => {
    expect(
      run(['--server-url', 'https://sms.example.com/api/mobile/v1', '--server-token', 'Basic ME:secret'])
        .fleetServer,
    ).toEqual({ url: 'https://sms.example.com/api/mobile/v1', token: 'Basic ME:secret' });
    expect(
      run([], { SMSGW_SERVER_URL: 'http://127.0.0.1:3000/api/mobile/v1', SMSGW_SERVER_TOKEN: 'key' })
        .fleetServer,
    ).toEqual({ url: 'http://127.0.0.1:3000/api/mobile/v1', token: 'key' });
    expect(run([]).fleetServer).toBeUndefined();
  });

  it('answers help and version requests without options', () => {
    expect(parseCommandLine(['--help']).kind).toBe('help');
    expect(parseCommandLine(['-v']).kind).toBe('version');
  });

  it('puts data in the per-user app-data folder of each OS', () => {
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/home/a/.config' })).toBe(
      '/home/a/.config/desktop-sms-gateway',
    );
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\a\\AppData\\Roaming' })).toContain(
      'Desktop SMS Gateway',
    );
    expect(defaultDataDir('darwin', {})).toContain('Library/Application Support/Desktop SMS Gateway');
  });
});

describe('secrets kept out of the process list (issue 36, item 13)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'smsgw-secrets-'));
  const file = (name: string, text: string) => {
    const path = join(folder, name);
    writeFileSync(path, text, { mode: 0o600 });
    return path;
  };
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('reads the password, the SIM PIN and the fleet token from -file flags, without the trailing line break', () => {
    const options = run([
      '--username',
      'office',
      '--password-file',
      file('password', 'correct horse battery\n'),
      '--sim-pin-file',
      file('pin', '1234\r\n'),
      '--server-url',
      'https://sms.example.com/api/mobile/v1',
      '--server-token-file',
      file('token', 'Basic ME:secret'),
    ]);
    expect(options).toMatchObject({
      password: 'correct horse battery',
      simPin: '1234',
      fleetServer: { token: 'Basic ME:secret' },
    });
  });

  it('reads them from the files named in SMSGW_*_FILE, the flags winning', () => {
    const env = {
      SMSGW_USERNAME: 'office',
      SMSGW_PASSWORD_FILE: file('env-password', 'from the environment\n'),
      SMSGW_SIM_PIN_FILE: file('env-pin', '4321'),
    };
    expect(run([], env)).toMatchObject({ password: 'from the environment', simPin: '4321' });
    expect(run(['--password-file', file('flag-password', 'from the flag file')], env).password).toBe(
      'from the flag file',
    );
  });

  it.each([
    [['--password', 'correct horse', '--password-file', '/nonexistent'], {}, 'password-file'],
    [[], { SMSGW_SIM_PIN: '1234', SMSGW_SIM_PIN_FILE: '/nonexistent' }, 'sim-pin-file'],
    [['--username', 'office', '--password-file', '/nonexistent/password'], {}, 'password-file'],
    [['--sim-pin-file', 'EMPTY'], {}, 'sim-pin-file'],
  ])('refuses %j %j naming %s', (argv, env, field) => {
    const emptyFile = file('empty', '\n');
    const error = configError(
      argv.map((value) => (value === 'EMPTY' ? emptyFile : value)),
      env,
    );
    expect(error.code).toBe(ErrorCode.ConfigInvalid);
    expect(error.field).toBe(field);
  });

  it('names each -file flag and its variable in the help, and says why to prefer them', () => {
    for (const flag of ['password', 'sim-pin', 'server-token']) {
      const variable = `SMSGW_${flag.toUpperCase().replace('-', '_')}_FILE`;
      expect(usage).toContain(`--${flag}-file <path>`);
      expect(usage).toContain(`(${variable})`);
    }
    expect(usage).toContain('(ps)');
  });
});
