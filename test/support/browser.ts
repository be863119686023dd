import { type Browser, chromium, type Page } from 'playwright-core';
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

/** Opens the UI at `baseUrl` in `page` and signs in with Basic credentials. */
export async function signIn(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/ui/`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
}
