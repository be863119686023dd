import { missingSystemTools, missingToolsMessage } from './systemTools.js';

/**
 * vitest globalSetup, first of all: a run on a machine without socat or Chromium stops here,
 * before any test, with the message that says how to install them — instead of failing a dozen
 * suites with stack traces, and never by skipping them.
 */
export default function requireTools(): void {
  const missing = missingSystemTools();
  if (missing.length > 0) throw new Error(`\n${missingToolsMessage(missing)}`);
}
