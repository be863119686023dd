import { type FormEvent, useEffect, useState } from 'react';
import { BalanceIntervalMinutes } from '../../../server/contract/schemas/modemOperationsSchemas.js';
import type { ModemOperationsSettings } from '../api/types.js';
import { useApp } from '../appContext.js';
import { ErrorNote, FormResult } from '../components/StatusViews.js';
import { patternDisabledText } from '../format/patternDisabled.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';

interface Draft {
  balanceCode: string;
  balanceIntervalMinutes: string;
  balancePattern: string;
  lowBalanceThreshold: string;
  rejectCalls: boolean;
  callReplyText: string;
  ownNumber: string;
}

function draftOf(settings: ModemOperationsSettings): Draft {
  return {
    balanceCode: settings.balanceCode ?? '',
    balanceIntervalMinutes: String(settings.balanceIntervalMinutes),
    balancePattern: settings.balancePattern ?? '',
    lowBalanceThreshold: settings.lowBalanceThreshold === null ? '' : String(settings.lowBalanceThreshold),
    rejectCalls: settings.rejectCalls,
    callReplyText: settings.callReplyText ?? '',
    ownNumber: settings.ownNumber ?? '',
  };
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

/** A modem's balance check (code, interval, pattern, threshold), what happens to calls, and its number. */
export function ModemOperationsForm(props: { deviceId: string; onSaved: () => void }) {
  const { api } = useApp();
  const settings = useResource(() => api.modemOperations(props.deviceId), [api, props.deviceId]);
  const [draft, setDraft] = useState<Draft>();
  const save = useAction();
  useEffect(() => {
    if (settings.data) setDraft(draftOf(settings.data));
  }, [settings.data]);

  if (settings.error !== undefined) return <ErrorNote error={settings.error} onRetry={settings.reload} />;
  if (!draft) return null;
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  // Said while the field still holds the pattern that was switched off: saving another clears it.
  const patternDisabled =
    settings.data?.balancePatternDisabled && draft.balancePattern === (settings.data.balancePattern ?? '')
      ? settings.data.balancePatternDisabled
      : undefined;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!draft) return;
    const saved = await save.run(async () => {
      await api.saveModemOperations(props.deviceId, {
        balanceCode: orNull(draft.balanceCode),
        balanceIntervalMinutes: Number(draft.balanceIntervalMinutes),
        balancePattern: orNull(draft.balancePattern),
        lowBalanceThreshold:
          orNull(draft.lowBalanceThreshold) === null ? null : Number(draft.lowBalanceThreshold),
        rejectCalls: draft.rejectCalls,
        callReplyText: orNull(draft.callReplyText),
        ownNumber: orNull(draft.ownNumber),
      });
      return 'Saved.';
    });
    if (saved) props.onSaved();
  }

  return (
    <form className="subpanel" aria-label="Balance and calls" onSubmit={(event) => void submit(event)}>
      <h3>Balance check and calls</h3>
      <label>
        Balance code
        <input
          value={draft.balanceCode}
          placeholder="*100#"
          onChange={(e) => set({ balanceCode: e.target.value })}
        />
        <span className="hint">Asked on a schedule; leave empty for none.</span>
      </label>
      <label>
        Every (minutes)
        <input
          type="number"
          min={BalanceIntervalMinutes.min}
          max={BalanceIntervalMinutes.max}
          value={draft.balanceIntervalMinutes}
          onChange={(e) => set({ balanceIntervalMinutes: e.target.value })}
        />
      </label>
      <label>
        Amount pattern
        <input
          value={draft.balancePattern}
          placeholder="balance is ([\d.]+)"
          onChange={(e) => set({ balancePattern: e.target.value })}
        />
        <span className="hint">
          A regular expression; its first group is the amount. Empty: the first number.
        </span>
        {patternDisabled && (
          <span className="form-error" role="alert">
            {patternDisabledText(patternDisabled)}
          </span>
        )}
      </label>
      <label>
        Warn below
        <input
          type="number"
          step="any"
          value={draft.lowBalanceThreshold}
          onChange={(e) => set({ lowBalanceThreshold: e.target.value })}
        />
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={draft.rejectCalls}
          onChange={(e) => set({ rejectCalls: e.target.checked })}
        />
        Hang up on incoming calls
      </label>
      <label>
        SMS answer to callers
        <input
          value={draft.callReplyText}
          placeholder="We only take messages on this number."
          onChange={(e) => set({ callReplyText: e.target.value })}
        />
      </label>
      <label>
        This SIM's number
        <input
          value={draft.ownNumber}
          placeholder="+4915112345678"
          onChange={(e) => set({ ownNumber: e.target.value })}
        />
        <span className="hint">
          Only where the SIM does not tell its own: SMPP clients are told incoming SMS were sent to it.
        </span>
      </label>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={save.busy}>
          Save
        </button>
        <FormResult result={save.result} />
      </div>
    </form>
  );
}
