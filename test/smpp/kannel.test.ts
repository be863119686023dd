/**
 * Kannel against the gateway (issue 47): Debian's bearerbox binds to our SMPP server as
 * transceiver with an app's SMPP login, as Kannel users set it up (docs/email-and-smpp.md), and
 * smsbox sends and receives through it. MT in GSM-7, UCS-2 and a long text reach the simulated
 * modem on a pty intact, each delivery report comes back for the id Kannel was given, MO short
 * and long arrive once, across a restart of the gateway and a Kannel that stops answering past
 * the old response timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../bench/support/gatewayProcess.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';
import { portAnswers } from '../support/portAnswers.js';
import { type Kannel, startKannel } from './support/kannel.js';

/** 181 GSM-7 characters: two parts of at most 153. */
const longText =
  'Your order 4711 has shipped. It leaves our warehouse today and reaches you in two to three working days; track it with the link in your account, or call us on 0800 123 4567 any day.';

describe('Kannel as an SMPP client of the gateway', () => {
  let harness: GatewayHarness;
  let kannel: Kannel;
  let smppPort: number;

  const textsTo = (number: string) => {
    const parts = harness
      .acceptedBy(0)
      .filter((pdu) => pdu.decoded.recipient.number === number)
      .map((pdu) => pdu.decoded);
    return { count: parts.length, text: parts.map((part) => part.text ?? '').join('') };
  };
  const dlrsOf = (ref: string) => kannel.dlrs.filter((dlr) => dlr.ref === ref);
  const sendAndDeliver = async (to: string, text: string, ref: string) => {
    const sent = await kannel.send(to, text, ref);
    expect(sent.status, sent.body).toBe(202);
    await pollUntil(() => dlrsOf(ref).some((dlr) => dlr.status === 1), {
      what: `the delivery report of ${ref}`,
      limitMs: 60_000,
    });
  };

  beforeAll(async () => {
    harness = await startGatewayHarness({
      ptyModems: 1,
      ptyModemOptions: () => ({ statusReportDelayMs: 200 }),
    });
    smppPort = await freeLoopbackPort();
    const enabled = await harness.api.patch('/settings', {
      desk: { default_country: 'GB' },
      smpp: { enabled: true, port: smppPort },
    });
    expect(enabled.status).toBe(200);
    await pollUntil(() => portAnswers(smppPort), { what: 'the SMPP server', limitMs: 30_000 });
    // Kannel keeps 15 characters of system_id and 8 of password (SMPP 3.4 §4.1.1 with the NUL):
    // the app's own login does not fit, its SMPP login does.
    const app = await harness.api.post<{ id: string }>('/gateway/v1/apps', {
      name: 'Kannel on the office PC',
      password: 'an app password far longer than eight',
    });
    expect(app.status).toBe(201);
    const login = await harness.api.request<{ systemId: string; password: string }>(
      'PUT',
      `/gateway/v1/apps/${app.body.id}/smpp-login`,
      { json: {} },
    );
    expect(login.status).toBe(200);
    kannel = await startKannel({ smppPort, ...login.body });
    await kannel.online();
  }, 120_000);

  afterAll(async () => {
    await kannel?.close();
    await harness?.close();
  });

  it('sends GSM-7, UCS-2 and a long text, each delivery report for the id the gateway gave', async () => {
    await sendAndDeliver('+447700900901', 'Table for 2 at 19:30 @ Luigi', 'gsm');
    await sendAndDeliver('+447700900902', 'Ваш столик забронирован', 'ucs2');
    await sendAndDeliver('+447700900903', longText, 'long');
    expect(textsTo('+447700900901').text).toBe('Table for 2 at 19:30 @ Luigi');
    expect(textsTo('+447700900902').text).toBe('Ваш столик забронирован');
    const long = textsTo('+447700900903');
    expect(long.text).toBe(longText);
    expect(long.count).toBe(2);
    for (const ref of ['gsm', 'ucs2']) {
      const [delivered] = dlrsOf(ref).filter((dlr) => dlr.status === 1);
      const id = /id:(\S+)/.exec(delivered?.reply ?? '')?.[1] ?? '';
      expect((await harness.api.get<{ state: string }>(`/messages/${id}`)).body.state).toBe('Delivered');
    }
  }, 180_000);

  it('passes incoming SMS, short and long, to Kannel once each, with the number they were sent to', async () => {
    harness.ptyModem(0).injectIncoming({ sender: '+447700900950', text: 'Yes please' });
    harness.ptyModem(0).injectIncoming({ sender: '+447700900951', text: longText });
    await pollUntil(() => kannel.mo.length >= 2, { what: 'two MO messages at Kannel', limitMs: 60_000 });
    const byText = new Map(kannel.mo.map((message) => [message.text, message]));
    expect(byText.get('Yes please')?.from).toMatch(/447700900950$/);
    expect(byText.get(longText)?.from).toMatch(/447700900951$/);
    for (const message of kannel.mo) expect(message.to).not.toBe('');
  }, 120_000);

  it('binds again after the gateway restarts, and sends on', async () => {
    await harness.restart();
    await kannel.online();
    await sendAndDeliver('+447700900904', 'After the restart', 'restart');
    expect(textsTo('+447700900904').text).toBe('After the restart');
  }, 180_000);

  it('gives a Kannel that stops answering its MO once, not again on the same session', async () => {
    kannel.pause();
    harness.ptyModem(0).injectIncoming({ sender: '+447700900960', text: 'While you slept' });
    // Longer than the 30 s a deliver_sm used to wait before it was sent again on the same
    // session; shorter than the quiet spell (60 s) after which the session is checked.
    await new Promise((resolve) => setTimeout(resolve, 35_000));
    kannel.resume();
    await pollUntil(() => kannel.mo.some((message) => message.text === 'While you slept'), {
      what: 'the MO once Kannel goes on',
      limitMs: 60_000,
    });
    await sendAndDeliver('+447700900905', 'And one more', 'after-pause');
    expect(kannel.mo.filter((message) => message.text === 'While you slept')).toHaveLength(1);
    expect(kannel.mo.map((message) => message.text).sort()).toEqual(
      ['Yes please', longText, 'While you slept'].sort(),
    );
  }, 180_000);
});
