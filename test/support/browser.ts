import { type Browser, chromium } from 'playwright-core';

/**
 * Real headless Chromium for the UI tests. The flags keep it quiet and deterministic on CI
 * machines: no sandbox (containers lack user namespaces), no GPU, no QUIC, no first-run UI, no
 * background traffic to Google services.
 */
export const chromiumPath = '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
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
