import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core run in the page as it is now, for the accessibility suites. */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: string[] }[];
}

/** What axe finds on the page as it is now: "rule: help — elements" per violation. */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"'))) {
    // Evaluated over the DevTools protocol: the UI's Content Security Policy (rightly) refuses
    // an inline <script>, and the test must not loosen it.
    await page.evaluate(axeSource);
  }
  const violations = await page.evaluate<AxeViolation[]>(
    'window.axe.run(document, { resultTypes: ["violations"] }).then((result) => result.violations)',
  );
  return violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}
