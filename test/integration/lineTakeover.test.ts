/**
 * A modem outlives the process that drove it. When a gateway dies in the middle of `AT+CMGS`,
 * the next one opens a line that is either still collecting a PDU (the `> ` prompt was shown)
 * or still due to answer a PDU the dead process submitted. Whatever it left must not answer the
 * new gateway's commands: found by the crash-recovery fault suite, where a message the
 * restarted gateway sent for the first time was failed with the dead process's bare `ERROR`.
 *
 * Here the "dead process" is a plain serialport client on the same pty that walks away mid-send.
 */
import { SerialPort } from 'serialport';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeSubmit } from '../../server/contract/pdu/index.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { type ApiMessage, waitForReadyModems, waitForState } from './support/apiReads.js';

const CTRL_Z = '\x1a';

/** Opens `path`, runs `AT+CMGS` up to its prompt, writes `afterPrompt`, and closes the port. */
async function abandonSend(path: string, afterPrompt: string, tpduLength: number): Promise<void> {
  const port = new SerialPort({ path, baudRate: 115_200, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
  let received = '';
  const prompt = new Promise<void>((resolve) => {
    port.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.includes('> ')) resolve();
    });
  });
  port.write(`AT+CMGS=${tpduLength}\r`);
  await prompt;
  if (afterPrompt !== '') {
    await new Promise<void>((resolve, reject) =>
      port.write(afterPrompt, (error) => (error ? reject(error) : resolve())),
    );
    await new Promise<void>((resolve) => port.drain(() => resolve()));
  }
  await new Promise<void>((resolve) => port.close(() => resolve()));
}

function submitFor(recipient: string) {
  const [part] = encodeSubmit({
    recipient,
    content: { kind: 'text', text: 'sent by a process that died' },
    requestStatusReport: false,
    concatReference: 0,
  });
  if (!part) throw new Error('no PDU');
  return part;
}

describe('taking over a modem line another process left in the middle of a send', () => {
  let harness: GatewayHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  async function sendAfterTakeover(running: GatewayHarness, phoneNumber: string): Promise<ApiMessage> {
    await waitForReadyModems(running.api, 1);
    const response = await running.api.post<ApiMessage>('/messages', {
      textMessage: { text: 'first message of the new process' },
      phoneNumbers: [phoneNumber],
      withDeliveryReport: false,
    });
    expect(response.status).toBe(202);
    // A message failed with the dead process's answer times out here, naming its state.
    return waitForState(running.api, `/messages/${response.body.id}`, 'Sent');
  }

  it('cancels a PDU input left open at the "> " prompt, and the first send is its own', async () => {
    const running = await startGatewayHarness({ ptyModems: 1 });
    harness = running;
    await waitForReadyModems(running.api, 1);
    await running.gateway.stop();
    const part = submitFor('+447700900301');
    await abandonSend(running.ptyPath(0), '', part.tpduLength);

    await running.restart();
    const message = await sendAfterTakeover(running, '+447700900302');
    expect(message.state).toBe('Sent');
    const recipients = running.acceptedBy(0).map((pdu) => pdu.decoded.recipient.number);
    expect(recipients).toEqual(['+447700900302']);
  });

  it("does not take the network answer to a dead process's PDU as the answer to its own commands", async () => {
    const running = await startGatewayHarness({
      ptyModems: 1,
      ptyModemOptions: () => ({ sendDelayMs: 700 }),
    });
    harness = running;
    await waitForReadyModems(running.api, 1);
    await running.gateway.stop();
    // The network refuses the dead process's PDU, 700 ms after it walked away.
    running.ptyModem(0).failSends(500, 1);
    const part = submitFor('+447700900303');
    await abandonSend(running.ptyPath(0), `${part.hex}${CTRL_Z}`, part.tpduLength);

    await running.restart();
    const message = await sendAfterTakeover(running, '+447700900304');
    expect(message).toMatchObject({ state: 'Sent' });
    // Nothing of ours was answered with the dead process's refusal, not even the bring-up's AT.
    const answeredWithItsError = running.logs.filter((record) =>
      JSON.stringify(record).includes('+CMS ERROR'),
    );
    expect(answeredWithItsError).toEqual([]);
    expect(running.acceptedBy(0).map((pdu) => pdu.decoded.recipient.number)).toEqual(['+447700900304']);
  });
});
