import { describe, expect, it } from 'vitest';
import { coreArguments } from '../../electron/coreArguments.js';
import { parseCommandLine } from '../../server/config/commandLine.js';

describe('the arguments the desktop app hands to the gateway core', () => {
  it('drops the switches AppImage, macOS and users add, which the strict core parser refuses', () => {
    const argv = [
      '--no-sandbox',
      '-psn_0_1234567',
      '--disable-gpu',
      '--enable-features=Foo',
      '--listen',
      '9090',
    ];
    const { kept, dropped } = coreArguments(argv);
    expect(kept).toEqual(['--listen', '9090']);
    expect(dropped).toEqual(['--no-sandbox', '-psn_0_1234567', '--disable-gpu', '--enable-features=Foo']);
    // What is kept parses; what was given whole would not.
    expect(() => parseCommandLine(argv, {})).toThrow();
    const parsed = parseCommandLine(kept, {});
    expect(parsed.kind === 'run' && parsed.options.listen.port).toBe(9090);
  });

  it('drops the script path of an unpackaged run and keeps flag values, joined or separate', () => {
    const { kept } = coreArguments([
      'dist/electron/main.js',
      '--modem=/dev/ttyUSB2',
      '--modem',
      'COM5:9600',
      '--simulate',
      '2',
      '--no-probe',
      '--log-level',
      'DEBUG',
    ]);
    expect(kept).toEqual([
      '--modem=/dev/ttyUSB2',
      '--modem',
      'COM5:9600',
      '--simulate',
      '2',
      '--no-probe',
      '--log-level',
      'DEBUG',
    ]);
    const parsed = parseCommandLine(kept, {});
    if (parsed.kind !== 'run') throw new Error('expected options');
    expect(parsed.options.modems.map((modem) => modem.path)).toEqual(['/dev/ttyUSB2', 'COM5']);
    expect(parsed.options.simulatedModems).toBe(2);
  });

  it('takes --simulate alone without swallowing the next switch or a stray word', () => {
    expect(coreArguments(['--simulate', '--disable-gpu']).kept).toEqual(['--simulate']);
    expect(coreArguments(['--simulate', 'main.js']).kept).toEqual(['--simulate']);
  });

  it('never hands the core --help or --version, which need a terminal', () => {
    expect(coreArguments(['--help', '-h', '--version', '-v']).kept).toEqual([]);
  });
});
