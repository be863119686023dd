// Types for scripts/cloudSigning.mjs, which dist.mjs runs as plain JavaScript.
export const trustedSigningVariables: Record<string, string>;
export function trustedSigningArgs(env: NodeJS.ProcessEnv): { args: string[] } | { error: string };
