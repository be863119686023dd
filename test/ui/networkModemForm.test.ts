import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import type { DeviceView } from '../../server/contract/schemas/deviceViewSchema.js';
import { startPtyModem } from '../../server/devices/simulator/ptyModem.js';
import { silentLogger } from '../../server/logging/logger.js';
import { launchBrowser, openTab, signIn } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { harnessPassword, harnessUser, startGatewayHarness } from '../support/gatewayHarness.js';
import { startSerialServer } from '../support/serialServer.js';

/**
 * The Modems screen's "Modem on a serial server" form in headless Chromium, against the real
 * gateway and a loopback serial server bridged to a simulated modem's pty.
 */
let browser: Browser;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  await buildUi();
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('adding a modem behind a serial server on the Modems screen', () => {
  it('will not send a malformed address, and adds a tcp://host:port that then shows its modem ready', async () => {
    const pty = await startPtyModem({ clock: systemClock, logger: silentLogger });
    cleanups.push(() => pty.close());
    const serialServer = await startSerialServer(pty);
    cleanups.push(serialServer.stop);
    const harness = await startGatewayHarness({
      options: { uiDirectory: 'dist/ui', simulatorFallback: false },
      allowPrivateTargets: true,
    });
    cleanups.push(() => harness.close());

    const page = await openTab(browser, { viewport: { width: 1024, height: 700 } });
    cleanups.push(() => page.close());
    await signIn(page, harness.url, harnessUser, harnessPassword);
    await page.goto(`${harness.url}/ui/#/modems`);
    await page.getByRole('button', { name: 'Add a modem' }).click();

    const form = page.getByRole('form', { name: 'Modem on a serial server' });
    const address = form.getByLabel('Serial server address');
    const add = form.getByRole('button', { name: 'Add network modem' });
    await expect(form.getByText(/a port from 1 to 65535/).count()).resolves.toBe(1);
    for (const malformed of ['tcp://modem.lan', 'tcp://modem.lan:4001/ttyS0', 'tcp://127.0.0.1:70000']) {
      await address.fill(malformed);
      await expect(address.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(add.isDisabled()).resolves.toBe(true);
    }

    await address.fill(serialServer.address);
    await expect(address.getAttribute('aria-invalid')).resolves.toBe('false');
    await add.click();
    await form
      .getByRole('status')
      .getByText(/^Added /)
      .waitFor();

    const card = page.getByRole('region', { name: /^Modem / }).filter({ hasText: serialServer.address });
    await card.getByText('Ready', { exact: true }).waitFor();
    const devices = await harness.api.get<DeviceView[]>('/devices');
    expect(devices.body.map((device) => device.modem.port)).toEqual([serialServer.address]);
    expect(serialServer.clients.size).toBe(1);
  }, 90_000);
});
