#!/usr/bin/env node
// Renders resources/trayTemplate.svg to the macOS tray images trayTemplate.png (16×16) and
// trayTemplate@2x.png (32×32) with Chromium (CHROMIUM_PATH, default /usr/bin/chromium), keeping
// the transparent background. Run after changing the SVG: `node scripts/renderTrayTemplate.mjs`.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const resources = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources');
const svg = await readFile(join(resources, 'trayTemplate.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  for (const [scale, file] of [
    [1, 'trayTemplate.png'],
    [2, 'trayTemplate@2x.png'],
  ]) {
    const page = await browser.newPage({ viewport: { width: 16, height: 16 }, deviceScaleFactor: scale });
    await page.setContent(`<body style="margin:0;background:transparent">${svg}</body>`);
    await page.locator('svg').screenshot({ path: join(resources, file), omitBackground: true });
    await page.close();
  }
} finally {
  await browser.close();
}
