import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screens } from '../../renderer/src/screenList.js';
import { axeViolations } from '../support/axe.js';
import { launchBrowser } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { startFleetServerDouble } from '../support/fleetServerDouble.js';
import { newTab, openScreen, signIn, startUiGateway, type UiGateway } from './uiGateway.js';

/**
 * axe-core over every screen of the UI, with two simulated modems (so the Modems screen holds
 * two panels) and the sign-in form; any violation fails the test with its rule and elements.
 */
let ui: UiGateway;
let browser: Browser;

beforeAll(async () => {
  await buildUi();
  ui = await startUiGateway({ simulatedModems: 2 });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
});

/** Each look a user may have: light and dark colours, and the narrow 640 px window. */
const looks = [
  { name: 'light', colorScheme: 'light' as const, viewport: undefined },
  { name: 'dark', colorScheme: 'dark' as const, viewport: undefined },
  { name: 'light at 640 px', colorScheme: 'light' as const, viewport: { width: 640, height: 700 } },
  { name: 'dark at 640 px', colorScheme: 'dark' as const, viewport: { width: 640, height: 700 } },
];

describe('accessibility (axe-core)', () => {
  it.each(looks)(
    'finds no violation on the sign-in form or any screen ($name)',
    async (look) => {
      const page = await newTab(browser, look.viewport ? { viewport: look.viewport } : {});
      await page.emulateMedia({ colorScheme: look.colorScheme });
      await page.goto(`${ui.baseUrl}/ui/`);
      await page.getByLabel('Username').waitFor();
      expect({ screen: 'sign-in', violations: await axeViolations(page) }).toEqual({
        screen: 'sign-in',
        violations: [],
      });
      await signIn(page, ui.baseUrl);
      for (const screen of screens) {
        await openScreen(page, screen.label);
        await page.locator('.loading').first().waitFor({ state: 'detached' });
        if (screen.id === 'logs') await page.locator('.log-line').first().waitFor();
        expect({ screen: screen.id, violations: await axeViolations(page) }).toEqual({
          screen: screen.id,
          violations: [],
        });
        // Nothing makes the page scroll sideways: wide tables scroll within themselves.
        expect({
          screen: screen.id,
          overflow: await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth'),
        }).toEqual({ screen: screen.id, overflow: 0 });
      }
      await page.close();
    },
    180_000,
  );

  it.each(['light' as const, 'dark' as const])(
    'finds no violation on the private-server status in fleet mode (%s)',
    async (colorScheme) => {
      const server = await startFleetServerDouble();
      const fleet = await startUiGateway({
        simulatorFallback: false,
        fleetServer: { url: server.baseUrl, token: server.serverKey },
      });
      try {
        const page = await newTab(browser);
        await page.emulateMedia({ colorScheme });
        await signIn(page, fleet.baseUrl);
        await page.getByRole('link', { name: /^Server: / }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.close();
      } finally {
        await fleet.close();
        await server.close();
      }
    },
    60_000,
  );
});
