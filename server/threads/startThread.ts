import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on `module`, a path relative to the caller's module (`besides`, its
 * `import.meta.url`) without an extension. The thread's script is `.js` when built and `.ts`
 * when run from source (tests, `tsx`); a `.ts` thread must load tsx itself before importing its
 * module, as the loader hooks of the starting thread do not carry over.
 */
export function startThread(besides: string, module: string, options: WorkerOptions = {}): Worker {
  const extension = extname(fileURLToPath(besides));
  const script = new URL(`./${module}${extension}`, besides);
  if (extension !== '.ts') return new Worker(script, options);
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(script.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}
