import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { requireSystemTool } from './systemTools.js';

/**
 * Real headless Chromium for the UI tests. The flags keep it quiet and deterministic on CI
 * machines: no sandbox (containers lack user namespaces), no GPU, no QUIC, no first-run UI, no
 * background traffic to Google services.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: requireSystemTool('chromium'),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * How long one Playwright step (a click, a fill, a wait for text) may take. A safety net, not a
 * pace: a loaded two-core machine has been seen to give a tab no animation frame for 10 s, and
 * a step that holds is seen as soon as it does. Below vitest's test timeout, so a failure names
 * what it waited for.
 */
export const browserStepTimeoutMs = 25_000;

/** A tab of its own (a fresh context when opened from the browser) with the step timeout. */
export async function openTab(
  from: Browser | BrowserContext,
  options: { timezoneId?: string; viewport?: { width: number; height: number } } = {},
): Promise<Page> {
  const page = await from.newPage({
    viewport: options.viewport ?? { width: 1024, height: 700 },
    timezoneId: options.timezoneId,
  });
  page.setDefaultTimeout(browserStepTimeoutMs);
  return page;
}

/** Opens the UI at `baseUrl` in `page` and signs in with Basic credentials. */
export async function signIn(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/ui/`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
}
