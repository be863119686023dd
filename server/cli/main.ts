import { setFlagsFromString } from 'node:v8';
import { describeError } from '../errors/gatewayError.js';

/**
 * Headless entry (`npm start` without Electron, or `node dist/server/cli/main.js`).
 * Exit codes: 0 stopped cleanly, 1 failed at run time, 2 bad flags or configuration.
 *
 * Why the young generation is held small while the gateway loads: V8 doubles it whenever more
 * than its size survived a scavenge since it last grew, and loading ≈ 600 modules makes nearly
 * every allocation survive, so it reached its 2 × 16 MB maximum before the first request and
 * stayed resident for the life of an idle gateway. What start-up
 * allocates lives on anyway, so a small young generation costs it nothing. Once the API answers,
 * V8's default growth is back and a busy gateway sizes it to its load as before. The modules are
 * imported after the flag is set, which is why the rest of the entry is a dynamic import.
 */
const startUpGrowthFactor = '--semi-space-growth-factor=1';
const defaultGrowthFactor = '--semi-space-growth-factor=2';

setFlagsFromString(startUpGrowthFactor);
import('./runCommandLine.js')
  .then(({ runCommandLine }) =>
    runCommandLine(process.argv.slice(2), () => setFlagsFromString(defaultGrowthFactor)),
  )
  .then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`Fatal: ${describeError(error)}\n`);
      process.exit(1);
    },
  );
