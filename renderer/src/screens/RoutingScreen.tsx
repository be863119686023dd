import { type FormEvent, useId, useState } from 'react';
import { describeMatch } from '../../../server/contract/domain/routingRules.js';
import { ApiError, describeError } from '../api/apiClient.js';
import type {
  DeviceRecord,
  RouteDecision,
  RoutingRuleInput,
  RoutingRuleView,
  SimTargetForm,
} from '../api/types.js';
import { useApp } from '../appContext.js';
import { DataTable } from '../components/DataTable.js';
import { EmptyState, ErrorNote, FormResult, Loading } from '../components/StatusViews.js';
import { SimTargetChoice } from '../modems/SimTargetChoice.js';
import { targetsText } from '../modems/simTargets.js';
import { OperatorChoice } from '../routing/OperatorChoice.js';
import { moveRule, type RuleField, refusedField, rulesWith } from '../routing/ruleList.js';
import { usePerson } from '../session/person.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';

/**
 * The routing rules (docs/accounts-plans-routing.md, "Routing"): in order, a number prefix or an
 * operator in a country, and the modems, or SIM slots of modems, that may carry messages to
 * those numbers, with fallback ones; "Try" asks the gateway where a
 * number would go now, and why. Those who may change settings add, edit, move and delete rules;
 * everyone else sees them and may try numbers.
 */
export function RoutingScreen() {
  const { api } = useApp();
  const { may } = usePerson();
  const rules = useResource(() => api.routingRules(), [api]);
  const devices = useResource(() => api.devices(), [api]);
  // By id: a rule moved or deleted meanwhile must not turn the form onto another rule.
  const [editingId, setEditingId] = useState<string>();
  const editingIndex = rules.data?.findIndex((rule) => rule.id === editingId);
  const editing = editingIndex === undefined || editingIndex < 0 ? undefined : editingIndex;
  const change = useAction();
  const editable = may('settings:write');
  const ruleList = rules.data ?? [];

  async function store(next: readonly RoutingRuleInput[], done: string) {
    const stored = await change.run(async () => {
      await api.setRoutingRules(next);
      return done;
    });
    if (stored) rules.reload();
  }

  return (
    <>
      <header className="page-head">
        <h1>Routing</h1>
      </header>
      <p className="hint">
        Rules are checked in order; the first that matches a number (its prefix, or its operator) chooses the
        modems. A number no rule matches goes through any modem. Fallback modems are used only while none of
        the rule’s modems is online; without them, the message waits.
      </p>
      <section className="panel" aria-labelledby="routing-rules-title">
        <h2 id="routing-rules-title">Rules</h2>
        {rules.error !== undefined ? (
          <ErrorNote error={rules.error} onRetry={rules.reload} />
        ) : rules.data === undefined ? (
          <Loading what="routing rules" />
        ) : rules.data.length === 0 ? (
          <EmptyState title="No rules: every message may go through any modem." />
        ) : (
          <DataTable
            label="Routing rules"
            rows={ruleList}
            rowKey={(rule) => rule.id}
            columns={[
              { header: '#', cell: (_rule, index) => index + 1 },
              { header: 'Numbers (prefix or operator)', cell: (rule) => matchText(rule) },
              { header: 'Modems', cell: (rule) => targetsText(devices.data, rule.deviceIds) },
              {
                header: 'Fallback',
                cell: (rule) => (
                  <>
                    {rule.fallbackDeviceIds.length === 0
                      ? 'none: wait'
                      : targetsText(devices.data, rule.fallbackDeviceIds)}
                  </>
                ),
              },
              editable && {
                header: 'Actions',
                headerHidden: true,
                cell: (rule, index) => (
                  <>
                    <span className="inline-action">
                      <button
                        aria-label={`Move rule ${index + 1} up`}
                        type="button"
                        className="link-button"
                        disabled={change.busy || index === 0}
                        onClick={() =>
                          void store(moveRule(ruleList, index, -1), `Rule ${describeMatch(rule)} moved up.`)
                        }
                      >
                        Up
                      </button>
                      <button
                        aria-label={`Move rule ${index + 1} down`}
                        type="button"
                        className="link-button"
                        disabled={change.busy || index === ruleList.length - 1}
                        onClick={() =>
                          void store(moveRule(ruleList, index, 1), `Rule ${describeMatch(rule)} moved down.`)
                        }
                      >
                        Down
                      </button>
                      <button
                        aria-label={`Edit rule ${index + 1}`}
                        type="button"
                        className="link-button"
                        onClick={() => setEditingId(rule.id)}
                      >
                        Edit
                      </button>
                      <button
                        aria-label={`Delete rule ${index + 1}`}
                        type="button"
                        className="link-button"
                        disabled={change.busy}
                        onClick={() =>
                          void store(
                            ruleList.filter((_, at) => at !== index),
                            `Rule ${describeMatch(rule)} deleted.`,
                          )
                        }
                      >
                        Delete
                      </button>
                    </span>
                  </>
                ),
              },
            ]}
          />
        )}
        <FormResult result={change.result} />
      </section>
      {editable && rules.data !== undefined && (
        <RuleForm
          key={editing === undefined ? 'new' : editingId}
          rules={rules.data}
          index={editing}
          devices={devices.data ?? []}
          onDone={() => {
            setEditingId(undefined);
            rules.reload();
          }}
        />
      )}
      <TryPanel devices={devices.data} />
    </>
  );
}

function matchText(rule: RoutingRuleView): string {
  if (rule.operator !== undefined) return `operator ${describeMatch(rule)}`;
  return rule.prefix === '+' ? '+ (every number)' : describeMatch(rule);
}

/** Adds a rule at the end, or edits the rule at `index`; the API checks the fields. */
function RuleForm(props: {
  rules: readonly RoutingRuleView[];
  index: number | undefined;
  devices: readonly DeviceRecord[];
  onDone: () => void;
}) {
  const { api } = useApp();
  const { index } = props;
  const editedRule = index === undefined ? undefined : props.rules[index];
  const [matchBy, setMatchBy] = useState<'prefix' | 'operator'>(
    editedRule?.operator === undefined ? 'prefix' : 'operator',
  );
  const [prefix, setPrefix] = useState(editedRule?.prefix ?? '+');
  const [country, setCountry] = useState(editedRule?.country ?? '');
  const [operator, setOperator] = useState(editedRule?.operator ?? '');
  const matchName = useId();
  const [deviceIds, setDeviceIds] = useState<SimTargetForm[]>(editedRule?.deviceIds ?? []);
  const [fallbackDeviceIds, setFallbackDeviceIds] = useState<SimTargetForm[]>(
    editedRule?.fallbackDeviceIds ?? [],
  );
  const save = useAction();
  const position = index ?? props.rules.length;
  const failed = save.result?.ok === false ? save.result.error : undefined;
  const refused = refusedField(failed, position);
  const fieldError = (field: RuleField) =>
    refused === field ? (
      <p className="field-error" role="alert">
        {describeError(failed)}
      </p>
    ) : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const saved = await save.run(async () => {
      const match = matchBy === 'prefix' ? { prefix } : { operator, country };
      await api.setRoutingRules(rulesWith(props.rules, { ...match, deviceIds, fallbackDeviceIds }, index));
      return undefined;
    });
    if (saved) props.onDone();
  }

  const title = index === undefined ? 'Add a rule' : `Edit rule ${index + 1}`;
  return (
    <form className="panel" aria-label={title} onSubmit={(event) => void submit(event)}>
      <h2>{title}</h2>
      <fieldset>
        <legend>Match numbers by</legend>
        <label className="checkbox">
          <input
            type="radio"
            name={matchName}
            checked={matchBy === 'prefix'}
            onChange={() => setMatchBy('prefix')}
          />
          Number prefix
        </label>
        <label className="checkbox">
          <input
            type="radio"
            name={matchName}
            checked={matchBy === 'operator'}
            onChange={() => setMatchBy('operator')}
          />
          Operator
        </label>
      </fieldset>
      {matchBy === 'prefix' ? (
        <>
          <label>
            Numbers starting with
            <input
              value={prefix}
              aria-invalid={refused === 'prefix'}
              onChange={(event) => setPrefix(event.target.value)}
            />
          </label>
          <p className="hint">A country (+49), a range (+4917), or + alone for every number.</p>
          {fieldError('prefix')}
        </>
      ) : (
        <OperatorChoice
          country={country}
          operator={operator}
          onCountry={setCountry}
          onOperator={setOperator}
          countryError={fieldError('country')}
          operatorError={fieldError('operator')}
        />
      )}
      <SimTargetChoice
        legend="Modems"
        devices={props.devices}
        chosen={deviceIds}
        onChange={setDeviceIds}
        error={fieldError('deviceIds')}
      />
      <SimTargetChoice
        legend="Fallback modems (while none of those is online)"
        devices={props.devices}
        chosen={fallbackDeviceIds}
        onChange={setFallbackDeviceIds}
        error={fieldError('fallbackDeviceIds')}
      />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={save.busy}>
          {index === undefined ? 'Add rule' : 'Save rule'}
        </button>
        {index !== undefined && (
          <button type="button" onClick={props.onDone}>
            Cancel
          </button>
        )}
        {refused === undefined && <FormResult result={save.result} />}
      </div>
    </form>
  );
}

/** "Try": where a message to a number would go now, and why, as the gateway decides it. */
function TryPanel(props: { devices: readonly DeviceRecord[] | undefined }) {
  const { api } = useApp();
  const [phoneNumber, setPhoneNumber] = useState('');
  const [decision, setDecision] = useState<RouteDecision>();
  const attempt = useAction();
  const failed = attempt.result?.ok === false ? attempt.result.error : undefined;
  const numberRefused = failed instanceof ApiError && failed.field === 'phoneNumber';

  async function submit(event: FormEvent) {
    event.preventDefault();
    setDecision(undefined);
    await attempt.run(async () => {
      setDecision(await api.tryRoute(phoneNumber));
      return undefined;
    });
  }

  return (
    <form className="panel" aria-label="Try a number" onSubmit={(event) => void submit(event)}>
      <h2>Try a number</h2>
      <div className="form-row">
        <label>
          Phone number
          <input
            inputMode="tel"
            value={phoneNumber}
            aria-invalid={numberRefused}
            onChange={(event) => setPhoneNumber(event.target.value)}
          />
        </label>
        <button type="submit" disabled={attempt.busy}>
          Try
        </button>
      </div>
      {numberRefused ? (
        <p className="field-error" role="alert">
          {describeError(failed)}
        </p>
      ) : (
        <FormResult result={attempt.result} />
      )}
      {decision && (
        <div role="status" aria-label="Where it goes">
          <p>
            {decision.deviceIds === undefined
              ? 'Any modem'
              : `Through ${targetsText(props.devices, decision.deviceIds)}`}
            <span className="muted"> — {decision.why}</span>
          </p>
          <p>
            Operator:{' '}
            {'name' in decision.operator
              ? `${decision.operator.name} (${decision.operator.country})`
              : decision.operator.unknown}
          </p>
        </div>
      )}
    </form>
  );
}
