/**
 * Issue 41, item 5, in the window: on a PC where discovery found a USB modem's port this user may
 * not open, the desktop's first-run panel says so instead of "plug it in" — the port, the command
 * that fixes it with a copy button, and the simulator as the other choice — and follows the live
 * stream as the state changes. Real headless Chromium against the real gateway, whose probing
 * meets a real EACCES (test/support/refusedUsbPort.ts).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import { type PtyModem, startPtyModem } from '../../server/devices/simulator/ptyModem.js';
import { silentLogger } from '../../server/logging/logger.js';
import { launchBrowser } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { ownerSessionToken } from '../support/ownerSession.js';
import { createRefusedUsbPort, type RefusedUsbPort } from '../support/refusedUsbPort.js';
import { newTab, signIn, startUiGateway, type UiGateway } from './uiGateway.js';

let ui: UiGateway;
let port: RefusedUsbPort;
let pty: PtyModem | undefined;
let browser: Browser;

beforeAll(async () => {
  await buildUi();
  port = await createRefusedUsbPort();
  ui = await startUiGateway({ simulatedModems: 0, simulatorFallback: false, probeSerialPorts: true }, false, {
    serial: port.serial,
  });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
  await pty?.close();
  await port?.close();
});

/** The window as the Electron shell opens it: the preload's facade, the simulator turned off. */
async function desktopWindow(): Promise<Page> {
  const token = await ownerSessionToken(ui.gateway);
  const page = await newTab(browser);
  // Electron's binary is absent here: this stands in for the preload's window.desktop facade.
  await page.addInitScript(`
    window.__preferences = {
      notifyOnIncoming: true, showSmsPreviews: false, notifyOnProblems: true, keepAwakeWhileQueued: true,
      startAtLogin: false, closeToTray: true, listenPort: null, useSimulator: false,
    };
    window.desktop = {
      getConnection: async () => ({ baseUrl: ${JSON.stringify(ui.baseUrl)}, token: ${JSON.stringify(token)} }),
      getPreferences: async () => window.__preferences,
      setPreference: async (key, value) => (window.__preferences = { ...window.__preferences, [key]: value }),
      openApiDocs: async () => undefined,
      getFirstRunLogin: async () => undefined,
      confirmFirstRunLoginSaved: async () => undefined,
    };
  `);
  await page.goto(`${ui.baseUrl}/ui/#/dashboard`);
  return page;
}

describe('the first-run panel when discovery may not open a modem port', () => {
  it('names the port and the fix command, keeps the simulator choice, and goes once the modem opens', async () => {
    const page = await desktopWindow();
    await page.getByRole('region', { name: 'No modem connected' }).waitFor();

    // Plugged in while the window is open: the panel changes through the live stream alone.
    port.plugIn();
    const refused = page.getByRole('region', { name: 'The modem cannot be opened' });
    await refused.waitFor({ timeout: 30_000 });
    await expect(page.getByRole('region', { name: 'No modem connected' }).count()).resolves.toBe(0);
    await refused.getByText(port.path).waitFor();
    const command = await refused.locator('code.command').textContent();
    expect(command).toMatch(/^sudo usermod -aG (dialout|uucp) \$USER$/);
    await refused.getByText('then log out and back in').waitFor();
    await refused.getByRole('button', { name: 'Copy command' }).waitFor();
    await refused.getByRole('button', { name: 'Use the simulated modem' }).waitFor();
    // In a browser too, the Dashboard names the port and its fix.
    const browserTab = await newTab(browser);
    await signIn(browserTab, ui.baseUrl);
    const banner = browserTab.getByRole('alert').filter({ hasText: 'A modem port cannot be opened.' });
    await banner.waitFor({ timeout: 30_000 });
    await expect(banner.textContent()).resolves.toMatch(
      new RegExp(
        `${port.path} may be a modem.*Run "sudo usermod -aG (dialout|uucp) \\$USER", then log out and back in`,
      ),
    );

    // Fixed (the port now leads to a modem): the next probe opens it and the panel goes.
    pty = await startPtyModem({ clock: systemClock, logger: silentLogger });
    await port.pointAt(pty.path);
    await refused.waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByRole('region', { name: 'No modem connected' }).waitFor({ state: 'detached' });
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    await browserTab.close();
    await page.close();
  }, 90_000);
});
