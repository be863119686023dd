import { useState } from 'react';
import type { ActionResult } from './components/StatusViews.js';

/** Busy flag and outcome line of a user action (save, send, remove…), shown with FormResult. */
export interface Action {
  busy: boolean;
  result: ActionResult | undefined;
  /**
   * Runs `action`; the text it returns becomes the success line (undefined: no line, only errors
   * are shown). Resolves to whether it succeeded, so the caller can reset or reload.
   */
  run(action: () => Promise<string | undefined>): Promise<boolean>;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ActionResult>();

  async function run(action: () => Promise<string | undefined>): Promise<boolean> {
    setBusy(true);
    setResult(undefined);
    try {
      const text = await action();
      if (text !== undefined) setResult({ ok: true, text });
      return true;
    } catch (error) {
      setResult({ ok: false, error });
      return false;
    } finally {
      setBusy(false);
    }
  }

  return { busy, result, run };
}
