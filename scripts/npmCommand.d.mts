// Types for scripts/npmCommand.mjs, which start.mjs runs as plain JavaScript.
export function npmCommand(
  args: string[],
  host: { platform: NodeJS.Platform; env: NodeJS.ProcessEnv; execPath: string },
): { command: string; args: string[]; shell: boolean };
