import { parentPort, workerData } from 'node:worker_threads';
import {
  type PatternReply,
  type PatternRequest,
  type PatternThreadData,
  progressSlots,
  type ThreadResult,
  type UserPattern,
} from './patternProtocol.js';

/**
 * The thread of a `PatternMatcher` (patternMatcher.ts): runs each batch's patterns in order and
 * answers each as it ends, so that what ran before a runaway pattern keeps its result when the
 * matcher terminates this thread. Before each pattern it notes which one runs and since when,
 * where the matcher reads it at the deadline.
 */
const port = parentPort;
if (!port) throw new Error('patternThread runs on a worker thread');
const progress = new Int32Array((workerData as PatternThreadData).progress);

/** Compiled once per thread: the same rules run on every incoming SMS. */
const compiled = new Map<string, RegExp>();
/** Rules and balance patterns are capped; this only bounds a thread that lives long. */
const maxCompiled = 500;

function compile(pattern: UserPattern): RegExp {
  const key = `${pattern.flags}/${pattern.source}`;
  let expression = compiled.get(key);
  if (!expression) {
    if (compiled.size >= maxCompiled) compiled.clear();
    expression = new RegExp(pattern.source, pattern.flags);
    compiled.set(key, expression);
  }
  return expression;
}

function run(pattern: UserPattern, text: string): ThreadResult {
  let expression: RegExp;
  try {
    expression = compile(pattern);
  } catch (error) {
    return { invalid: (error as Error).message };
  }
  const match = expression.exec(text);
  return { groups: match ? Array.from(match) : null };
}

port.on('message', (request: PatternRequest) => {
  request.patterns.forEach((pattern, index) => {
    Atomics.store(progress, progressSlots.startedAfterMs, Date.now() - request.sentAt);
    Atomics.store(progress, progressSlots.running, index);
    const reply: PatternReply = { kind: 'result', id: request.id, index, result: run(pattern, request.text) };
    port.postMessage(reply);
  });
});
port.postMessage({ kind: 'ready' } satisfies PatternReply);
