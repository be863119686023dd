import { type FormEvent, useState } from 'react';
import type { DeviceRecord, RuleRecord, RuleVerdict } from '../api/types.js';
import { useApp } from '../appContext.js';
import { IdSelect } from '../components/IdSelect.js';
import { ListView } from '../components/ListView.js';
import { RoleLimit, Writes } from '../components/RoleLimit.js';
import { EmptyState, FormResult } from '../components/StatusViews.js';
import { RuleEditor } from '../desk/RuleEditor.js';
import { describeRule } from '../desk/ruleForm.js';
import { patternDisabledText } from '../format/patternDisabled.js';
import { skippedOnRule } from '../format/skippedReply.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';

/**
 * Auto-reply rules (docs/desk.md "Auto-reply rules"): evaluated in this order on every incoming SMS;
 * each that applies acts once per sender per period (Settings). The tester runs a sample text
 * through them without sending anything.
 */
export function RulesScreen() {
  const { api } = useApp();
  const rules = useResource(() => api.rules(), [api]);
  const devices = useResource(() => api.devices(), [api]);
  const templates = useResource(() => api.templates(), [api]);
  const groups = useResource(() => api.groups(), [api]);
  const names = {
    template: (id: string) => templates.data?.find((template) => template.id === id)?.name ?? id,
    group: (id: string) => groups.data?.find((group) => group.id === id)?.name ?? id,
  };
  const [editing, setEditing] = useState<RuleRecord | 'new' | undefined>(undefined);
  const change = useAction();

  async function act(action: () => Promise<unknown>) {
    if (await change.run(async () => void (await action()))) rules.reload();
  }

  function move(index: number, by: number) {
    const ids = (rules.data ?? []).map((rule) => rule.id);
    const [moved] = ids.splice(index, 1);
    if (moved === undefined) return;
    ids.splice(index + by, 0, moved);
    void act(() => api.reorderRules(ids));
  }

  return (
    <>
      <header className="page-head">
        <h1>Auto-reply rules</h1>
        <div className="head-actions">
          <Writes scope="rules:write">
            <button type="button" className="primary" onClick={() => setEditing('new')}>
              Add rule
            </button>
          </Writes>
        </div>
      </header>
      <RoleLimit scope="rules:write" what="the rules and try them" />
      <FormResult result={change.result} />
      {editing && (
        <RuleEditor
          key={editing === 'new' ? 'new' : editing.id}
          rule={editing === 'new' ? undefined : editing}
          devices={devices.data}
          templates={templates.data}
          groups={groups.data}
          onDone={(saved) => {
            setEditing(undefined);
            if (saved) rules.reload();
          }}
        />
      )}
      <section className="panel">
        <ListView
          read={rules}
          items={rules.data}
          what="rules"
          empty={
            <EmptyState title="No rules yet.">
              A rule can answer a keyword (“PRICE”), reply outside opening hours, or forward messages to a
              colleague.
            </EmptyState>
          }
        >
          {(inOrder) => (
            <ol className="plain rules" aria-label="Rules in order">
              {inOrder.map((rule, index) => (
                <li key={rule.id} className="rule-row">
                  <div>
                    <strong>{rule.name}</strong>{' '}
                    {!rule.enabled && <span className="badge badge-muted">Off</span>}
                    {rule.patternDisabled && <span className="badge badge-warn">Pattern off</span>}
                    {rule.lastSkipped && <span className="badge badge-warn">Reply skipped</span>}
                    <div className="hint">{describeRule(rule, names)}</div>
                    {rule.patternDisabled && (
                      <div className="form-error">{patternDisabledText(rule.patternDisabled)}</div>
                    )}
                    {rule.lastSkipped && <div className="form-error">{skippedOnRule(rule.lastSkipped)}</div>}
                  </div>
                  <Writes scope="rules:write">
                    <div className="head-actions">
                      <button
                        type="button"
                        disabled={change.busy || index === 0}
                        onClick={() => move(index, -1)}
                        aria-label={`Move ${rule.name} up`}
                      >
                        ↑
                      </button>
                      <button
                        type="button"
                        disabled={change.busy || index === inOrder.length - 1}
                        onClick={() => move(index, 1)}
                        aria-label={`Move ${rule.name} down`}
                      >
                        ↓
                      </button>
                      <button type="button" onClick={() => setEditing(rule)}>
                        Edit
                      </button>
                      <button
                        type="button"
                        className="danger"
                        disabled={change.busy}
                        onClick={() => void act(() => api.removeRule(rule.id))}
                      >
                        Delete
                      </button>
                    </div>
                  </Writes>
                </li>
              ))}
            </ol>
          )}
        </ListView>
      </section>
      <RuleTester devices={devices.data} />
    </>
  );
}

function RuleTester(props: { devices: DeviceRecord[] | undefined }) {
  const { api } = useApp();
  const [text, setText] = useState('');
  const [sender, setSender] = useState('');
  const [deviceId, setDeviceId] = useState('');
  const [verdicts, setVerdicts] = useState<RuleVerdict[] | undefined>(undefined);
  const test = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    await test.run(async () => {
      setVerdicts(
        await api.testRules({ text, ...(sender ? { sender } : {}), ...(deviceId ? { deviceId } : {}) }),
      );
      return undefined;
    });
  }

  return (
    <section className="panel" aria-labelledby="rule-tester-title">
      <h2 id="rule-tester-title">Try the rules</h2>
      <form className="form-row" onSubmit={(event) => void submit(event)} aria-label="Rule tester">
        <label className="grow">
          Sample text
          <input name="sample" value={text} onChange={(event) => setText(event.target.value)} />
        </label>
        <label>
          From
          <input
            name="sender"
            placeholder="+10000000000"
            value={sender}
            onChange={(event) => setSender(event.target.value)}
          />
        </label>
        <IdSelect
          label="Arriving on"
          none="any modem"
          choices={props.devices}
          value={deviceId}
          onChange={setDeviceId}
        />
        <div className="form-actions">
          <button type="submit" disabled={test.busy}>
            Test
          </button>
        </div>
      </form>
      <FormResult result={test.result} />
      {verdicts && (
        <ul className="plain" aria-label="Verdicts">
          {verdicts.length === 0 && <li className="muted">There are no rules.</li>}
          {verdicts.map((verdict) => (
            <li key={verdict.ruleId}>
              <span
                className={`badge badge-${verdict.cannotSend ? 'warn' : verdict.applies ? 'ok' : 'muted'}`}
              >
                {verdict.cannotSend ? 'Sends nothing' : verdict.applies ? 'Acts' : 'Skips'}
              </span>{' '}
              <strong>{verdict.name}</strong>: {verdict.reason}
              {verdict.wouldSend && (
                <>
                  {' '}
                  — sends to {verdict.wouldSend.to}:{' '}
                  <span className="would-send">“{verdict.wouldSend.text}”</span>
                </>
              )}
              {verdict.cannotSend && <span className="form-error"> — {verdict.cannotSend}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
