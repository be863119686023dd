// How `npm start` runs `npm run <script>` on every OS (scripts/start.mjs).

/**
 * npm sets `npm_execpath` to its own CLI script for the scripts it runs: running that script
 * with this Node works alike on Windows, macOS and Linux. Started without npm
 * (`node scripts/start.mjs`), Windows has npm only as `npm.cmd`, a batch file, which
 * child_process can run only through the shell (Node's docs, "Spawning .bat and .cmd files on
 * Windows"); elsewhere `npm` is an executable on the PATH.
 *
 * @param {string[]} args
 * @param {{ platform: NodeJS.Platform, env: NodeJS.ProcessEnv, execPath: string }} host
 * @returns {{ command: string, args: string[], shell: boolean }}
 */
export function npmCommand(args, host) {
  const npmCli = host.env.npm_execpath;
  if (npmCli) return { command: host.execPath, args: [npmCli, ...args], shell: false };
  if (host.platform === 'win32') return { command: 'npm.cmd', args, shell: true };
  return { command: 'npm', args, shell: false };
}
