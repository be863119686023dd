import { TooManyAttemptsError } from './loginThrottle.js';

/**
 * Bounds the password hashes running at once. scrypt runs on libuv's thread pool (4 threads by
 * default), which file and DNS work share: 200 wrong passwords at once once took 3.8–9.2 s from
 * a valid request elsewhere. At most `concurrency` hashes run, `queueLimit` more wait in order,
 * and anything beyond is refused at once with 429 rather than queued without bound.
 */
export interface HashingGate {
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function createHashingGate(concurrency = 2, queueLimit = 16): HashingGate {
  let running = 0;
  const waiting: Array<() => void> = [];

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  return {
    async run(work) {
      if (running >= concurrency) {
        if (waiting.length >= queueLimit) throw new TooManyAttemptsError(1);
        // The slot passes straight from the finishing hash to this one (`release`).
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        running++;
      }
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
}
