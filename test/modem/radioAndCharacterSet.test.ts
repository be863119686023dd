/**
 * Issue 47, real modems' settings the gateway used to leave alone, on real ptys: a module left
 * in flight mode (`+CFUN: 4`, which SIMCom and Quectel keep across power cycles) is switched on
 * and comes into service; one whose radio will not switch on says "radio off" instead of waiting
 * for a network; and a USSD answer reads right whatever character set the modem came up in
 * (TS 27.007 §5.5 +CSCS: "GSM" writes ä as the septet 0x7B, `w{hlen`; "UCS2" writes hex).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForReadyModems } from '../integration/support/apiReads.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';

interface DeviceView {
  id: string;
  modem: { port: string; status: string; statusReason?: string; statusDetail?: string };
}

const flightMode = 0;
const radioStuckOff = 1;
const startsInUcs2 = 2;
const startsInGsm = 3;

const umlautAnswer = 'Kontostand: 3.00 EUR. Bitte wählen Sie: 1 Konto aufladen';

describe('radio power and character set on real ptys', () => {
  let harness: GatewayHarness;
  const idOf = new Map<number, string>();

  const devices = async () => (await harness.api.get<DeviceView[]>('/devices')).body;

  beforeAll(async () => {
    harness = await startGatewayHarness({
      ptyModems: 4,
      ptyModemOptions: (index) => {
        if (index === flightMode) return { radio: 'off' };
        if (index === radioStuckOff) return { radio: 'stuck-off' };
        if (index === startsInUcs2) return { characterSet: 'UCS2' };
        return { characterSet: 'GSM' };
      },
      modemTiming: { healthIntervalMs: 1_000 },
    });
    for (const index of [startsInUcs2, startsInGsm]) {
      harness.ptyModem(index).setUssdService('*102#', { answer: umlautAnswer });
    }
    await waitForReadyModems(harness.api, 3);
    // The configured ports come up in the background: the one whose radio stays off is listed
    // once it has answered, which may be after the other three are ready.
    await pollUntil(
      async () => {
        for (const device of await devices()) {
          const index = [0, 1, 2, 3].find((candidate) => harness.ptyPath(candidate) === device.modem.port);
          if (index !== undefined) idOf.set(index, device.id);
        }
        return idOf.size === 4;
      },
      { limitMs: 60_000, what: 'all four modems to be listed' },
    );
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
  });

  it('switches on the radio of a modem left in flight mode, which then comes into service', async () => {
    const modem = harness.ptyModem(flightMode);
    expect(modem.commands).toContain('AT+CFUN=1');
    const device = (await devices()).find((candidate) => candidate.id === idOf.get(flightMode));
    expect(device?.modem.status).toBe('ready');
  });

  it('says the radio is off when it will not switch on, instead of waiting for a network', async () => {
    await pollUntil(
      async () =>
        (await devices()).find((candidate) => candidate.id === idOf.get(radioStuckOff))?.modem
          .statusReason === 'radio-off',
      { what: 'the stuck modem reported as radio off', limitMs: 30_000 },
    );
    const device = (await devices()).find((candidate) => candidate.id === idOf.get(radioStuckOff));
    expect(device?.modem.status).toBe('no-network');
    expect(device?.modem.statusDetail).toMatch(/radio is off \(\+CFUN: 4, flight mode\)/);
  });

  it.each([
    ['"UCS2"', startsInUcs2],
    ['"GSM"', startsInGsm],
  ])('reads a USSD answer with umlauts from a modem that came up in %s', async (_set, index) => {
    const response = await harness.api.post<{ answer: string }>(
      `/gateway/v1/devices/${idOf.get(index)}/ussd`,
      {
        code: '*102#',
      },
    );
    expect(response.status).toBe(200);
    expect(response.body.answer).toBe(umlautAnswer);
    // The gateway chose "GSM" and the modem took it.
    expect(harness.ptyModem(index).commands).toContain('AT+CSCS="GSM"');
  });
});
