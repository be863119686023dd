import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Our package.json, found by walking up from this file: the same code runs from `server/`
 * (tsx, tests) and from `dist/server/` (npm start, Electron), at different depths.
 */
export function readPackageVersion(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(directory, 'package.json');
    if (existsSync(candidate)) {
      const parsed = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (parsed.name === 'desktop-sms-gateway' && parsed.version) return parsed.version;
    }
    const parent = dirname(directory);
    if (parent === directory) return '0.0.0';
    directory = parent;
  }
}

/** "1.4.12" → 10412: the integer build number upstream reports as `releaseId` (VERSION_CODE). */
export function releaseIdOf(version: string): number {
  const [major = 0, minor = 0, patch = 0] = version
    .split(/[.+-]/)
    .map((part) => Number.parseInt(part, 10) || 0);
  return major * 10_000 + minor * 100 + patch;
}
