import { type FormEvent, useState } from 'react';
import { placeholdersWithoutFallback } from '../../../server/contract/domain/placeholders.js';
import type { DeviceRecord, RuleRecord } from '../api/types.js';
import { useApp } from '../appContext.js';
import { IdSelect } from '../components/IdSelect.js';
import { FormResult } from '../components/StatusViews.js';
import { patternDisabledText } from '../format/patternDisabled.js';
import { useAction } from '../useAction.js';
import type { Group, Template } from './deskTypes.js';
import { draftOf, emptyDraft, type RuleDraft, ruleOf, weekdayLabels } from './ruleForm.js';

const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Adds or changes one auto-reply rule (docs/desk.md "Auto-reply rules"): what it matches, when, and what it does. */
export function RuleEditor(props: {
  rule: RuleRecord | undefined;
  devices: DeviceRecord[] | undefined;
  templates: Template[] | undefined;
  groups: Group[] | undefined;
  onDone: (saved: boolean) => void;
}) {
  const { api } = useApp();
  const [draft, setDraft] = useState<RuleDraft>(() =>
    props.rule ? draftOf(props.rule, localZone) : emptyDraft(localZone),
  );
  const save = useAction();
  const set = (change: Partial<RuleDraft>) => setDraft((current) => ({ ...current, ...change }));
  // Said while the draft still holds the pattern that was switched off: saving another clears it.
  const patternDisabled =
    props.rule?.patternDisabled &&
    draft.matchKind === props.rule.match.kind &&
    draft.pattern === props.rule.match.pattern
      ? props.rule.patternDisabled
      : undefined;
  const setPeriod = (index: number, change: Partial<RuleDraft['periods'][number]>) =>
    set({ periods: draft.periods.map((period, at) => (at === index ? { ...period, ...change } : period)) });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const rule = ruleOf(draft);
    const saved = await save.run(async () => {
      if (props.rule) await api.replaceRule(props.rule.id, rule);
      else await api.createRule(rule);
      return undefined;
    });
    if (saved) props.onDone(true);
  }

  return (
    <form className="panel rule-editor" onSubmit={(event) => void submit(event)} aria-label="Rule">
      <h2>{props.rule ? `Edit “${props.rule.name}”` : 'New rule'}</h2>
      <div className="form-row">
        <label>
          Name
          <input name="name" value={draft.name} onChange={(event) => set({ name: event.target.value })} />
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.enabled}
            onChange={(event) => set({ enabled: event.target.checked })}
          />
          Enabled
        </label>
      </div>
      <div className="form-row">
        <label>
          When the text
          <select
            name="matchKind"
            value={draft.matchKind}
            onChange={(event) => set({ matchKind: event.target.value as RuleDraft['matchKind'] })}
          >
            <option value="startsWith">starts with the word</option>
            <option value="contains">contains</option>
            <option value="regex">matches the regular expression</option>
            <option value="any">is anything</option>
          </select>
        </label>
        {draft.matchKind !== 'any' && (
          <label>
            Pattern
            <input
              name="pattern"
              value={draft.pattern}
              onChange={(event) => set({ pattern: event.target.value })}
            />
            {patternDisabled && (
              <span className="form-error" role="alert">
                {patternDisabledText(patternDisabled)}
              </span>
            )}
          </label>
        )}
        <IdSelect
          label="Arrived on"
          name="deviceId"
          none="any modem"
          choices={props.devices}
          value={draft.deviceId}
          onChange={(deviceId) => set({ deviceId })}
        />
      </div>
      <fieldset>
        <legend>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={draft.outsideHours}
              onChange={(event) => set({ outsideHours: event.target.checked })}
            />
            Only outside opening hours
          </label>
        </legend>
        {draft.outsideHours && (
          <>
            <label>
              Time zone
              <input
                name="timeZone"
                value={draft.timeZone}
                onChange={(event) => set({ timeZone: event.target.value })}
              />
            </label>
            {draft.periods.map((period, index) => (
              <fieldset className="form-row" key={period.key}>
                <legend className="visually-hidden">Opening period {index + 1}</legend>
                {weekdayLabels.map((label, day) => (
                  <label key={label} className="checkbox">
                    <input
                      type="checkbox"
                      checked={period.days.includes(day)}
                      onChange={(event) =>
                        setPeriod(index, {
                          days: event.target.checked
                            ? [...period.days, day].sort()
                            : period.days.filter((known) => known !== day),
                        })
                      }
                    />
                    {label}
                  </label>
                ))}
                <label>
                  Opens
                  <input
                    type="time"
                    value={period.from}
                    onChange={(event) => setPeriod(index, { from: event.target.value })}
                  />
                </label>
                <label>
                  Closes
                  <input
                    type="time"
                    value={period.to}
                    onChange={(event) => setPeriod(index, { to: event.target.value })}
                  />
                </label>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => set({ periods: draft.periods.filter((_period, at) => at !== index) })}
                >
                  Remove
                </button>
              </fieldset>
            ))}
            <button
              type="button"
              onClick={() =>
                set({
                  periods: [
                    ...draft.periods,
                    {
                      key: Math.max(-1, ...draft.periods.map((period) => period.key)) + 1,
                      days: [6],
                      from: '10:00',
                      to: '14:00',
                    },
                  ],
                })
              }
            >
              Add opening period
            </button>
          </>
        )}
      </fieldset>
      <div className="form-row">
        <label>
          Then
          <select
            name="actionKind"
            value={draft.actionKind}
            onChange={(event) => set({ actionKind: event.target.value as RuleDraft['actionKind'] })}
          >
            <option value="reply">reply with a text</option>
            <option value="template">reply with a template</option>
            <option value="forward">forward to</option>
            <option value="addToGroup">add the sender to a group</option>
          </select>
        </label>
        {draft.actionKind === 'template' && (
          <IdSelect
            label="Template"
            name="templateId"
            none="Choose…"
            choices={props.templates}
            value={draft.templateId}
            onChange={(templateId) => set({ templateId })}
          />
        )}
        {draft.actionKind === 'addToGroup' && (
          <IdSelect
            label="Group"
            name="groupId"
            none="Choose…"
            choices={props.groups}
            value={draft.groupId}
            onChange={(groupId) => set({ groupId })}
          />
        )}
        {draft.actionKind === 'reply' && (
          <label className="grow">
            Reply text
            <textarea
              name="replyText"
              rows={2}
              value={draft.replyText}
              onChange={(event) => set({ replyText: event.target.value })}
            />
          </label>
        )}
        {(draft.actionKind === 'reply' || draft.actionKind === 'template') && (
          <UnknownSenderWarning
            text={
              draft.actionKind === 'template'
                ? (props.templates?.find((template) => template.id === draft.templateId)?.text ?? '')
                : draft.replyText
            }
          />
        )}
        {draft.actionKind === 'forward' && (
          <label>
            Number
            <input
              name="forwardTo"
              value={draft.forwardTo}
              placeholder="+15551234567"
              onChange={(event) => set({ forwardTo: event.target.value })}
            />
          </label>
        )}
      </div>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={save.busy}>
          Save rule
        </button>
        <button type="button" onClick={() => props.onDone(false)}>
          Cancel
        </button>
        <FormResult result={save.result} />
      </div>
    </form>
  );
}

/**
 * A reply's placeholder with no fallback that a sender outside the address book cannot fill
 * ({phone} always can): such a sender would get no reply at all, so the editor says so.
 */
function UnknownSenderWarning(props: { text: string }) {
  const unfilled = placeholdersWithoutFallback(props.text).filter((name) => name !== 'phone');
  if (unfilled.length === 0) return null;
  const first = unfilled[0] ?? 'name';
  return (
    <p className="form-warning" role="note">
      {unfilled.map((name) => `{${name}}`).join(', ')} {unfilled.length === 1 ? 'has' : 'have'} no value for a
      sender who is not in your contacts, and then no reply is sent. Give{' '}
      {unfilled.length === 1 ? 'it' : 'each'} a fallback, as {`{${first}|there}`}.
    </p>
  );
}
