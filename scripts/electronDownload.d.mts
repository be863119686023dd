// Types for scripts/electronDownload.mjs, which start.mjs runs as plain JavaScript.
export function downloadElectron(options: {
  installer: string;
  version: string;
  timeoutMs: number;
  report: (line: string) => void;
}): string | undefined;
