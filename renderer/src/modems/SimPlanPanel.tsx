import { type FormEvent, useEffect, useState } from 'react';
import { PlanNoticeLevels } from '../../../server/contract/domain/planNoticeLevels.js';
import type { SimPlanTermsInput, SimPlanView } from '../api/types.js';
import { useApp } from '../appContext.js';
import { DataTable } from '../components/DataTable.js';
import { ErrorNote, FormResult, Loading } from '../components/StatusViews.js';
import { formatDateTime } from '../format/timeFormat.js';
import { usePerson } from '../session/person.js';
import { useAction } from '../useAction.js';
import type { Resource } from '../useResource.js';
import { capUseText, isCapReached } from './simCaps.js';

type Period = 'day' | 'week' | 'month';

interface Draft {
  perDay: string;
  perWeek: string;
  perMonth: string;
  recipients: string;
  recipientsPeriod: Period;
  unit: 'messages' | 'parts';
  resetAt: string;
  timeZone: string;
  whenCapped: 'hold' | 'spill';
}

const countText = (value: number | undefined) => (value === undefined ? '' : String(value));

function draftOf(plan: SimPlanView | undefined): Draft {
  return {
    perDay: countText(plan?.perDay),
    perWeek: countText(plan?.perWeek),
    perMonth: countText(plan?.perMonth),
    recipients: countText(plan?.recipients?.limit),
    recipientsPeriod: plan?.recipients?.period ?? 'month',
    unit: plan?.unit ?? 'messages',
    resetAt: plan?.resetAt ?? '00:00',
    timeZone: plan?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    whenCapped: plan?.whenCapped ?? 'hold',
  };
}

/** The terms as the API takes them; a count left empty is no such cap, and the API checks the rest. */
function termsOf(draft: Draft): SimPlanTermsInput {
  const count = (text: string) => (text.trim() === '' ? undefined : Number(text));
  const recipients = count(draft.recipients);
  return {
    perDay: count(draft.perDay),
    perWeek: count(draft.perWeek),
    perMonth: count(draft.perMonth),
    ...(recipients === undefined
      ? {}
      : { recipients: { limit: recipients, period: draft.recipientsPeriod } }),
    unit: draft.unit,
    resetAt: draft.resetAt,
    timeZone: draft.timeZone.trim(),
    whenCapped: draft.whenCapped,
  };
}

/** The share of a cap from which its bar warns, as the `plan:cap-warning` event does. */
const nearCapShare = PlanNoticeLevels[0] / 100;

/** The IANA zones this browser knows: asked once, the list is long and never changes. */
const knownTimeZones = Intl.supportedValuesOf('timeZone');

/** The known zones, with the saved one even if this browser does not know it. */
function timeZoneChoices(current: string): readonly string[] {
  return knownTimeZones.includes(current) ? knownTimeZones : [current, ...knownTimeZones];
}

const capNames: Record<SimPlanView['usage'][number]['cap'], string> = {
  day: 'Per day',
  week: 'Per week',
  month: 'Per month',
  recipients: 'Distinct recipients',
};

/**
 * A SIM's carrier plan on its modem's panel (docs/accounts-plans-routing.md, "SIM plans"): the
 * use against each cap in its period, and, for those who may change settings, the form that
 * sets the caps, their reset, and whether a capped SIM's messages wait or go through another SIM.
 */
export function SimPlanPanel(props: {
  deviceId: string;
  simNumbers: readonly number[];
  plans: Resource<SimPlanView[]>;
}) {
  const { plans } = props;
  if (plans.error !== undefined) return <ErrorNote error={plans.error} onRetry={plans.reload} />;
  if (plans.data === undefined) return <Loading what="SIM plans" />;
  return (
    <div className="subpanel">
      {props.simNumbers.map((sim) => (
        <SimPlanForm
          key={sim}
          deviceId={props.deviceId}
          sim={sim}
          plan={plans.data?.find((plan) => plan.deviceId === props.deviceId && plan.sim === sim)}
          onChanged={plans.reload}
        />
      ))}
    </div>
  );
}

function SimPlanForm(props: {
  deviceId: string;
  sim: number;
  plan: SimPlanView | undefined;
  onChanged: () => void;
}) {
  const { api } = useApp();
  const { may } = usePerson();
  const { plan, sim } = props;
  const [draft, setDraft] = useState<Draft>(() => draftOf(plan));
  const save = useAction();
  const removal = useAction();
  useEffect(() => setDraft(draftOf(plan)), [plan]);
  const set = (change: Partial<Draft>) => setDraft({ ...draft, ...change });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const saved = await save.run(async () => {
      await api.setPlan(props.deviceId, sim, termsOf(draft));
      return `The plan of SIM ${sim} is saved.`;
    });
    if (saved) props.onChanged();
  }

  async function remove() {
    const removed = await removal.run(async () => {
      await api.removePlan(props.deviceId, sim);
      return `SIM ${sim} sends without caps.`;
    });
    if (removed) props.onChanged();
  }

  const countField = (label: string, key: 'perDay' | 'perWeek' | 'perMonth' | 'recipients') => (
    <label>
      {label}
      <input
        inputMode="numeric"
        value={draft[key]}
        onChange={(event) => set({ [key]: event.target.value })}
      />
    </label>
  );

  return (
    <section aria-label={`Plan of SIM ${sim}`}>
      <h3>Plan of SIM {sim}</h3>
      {plan ? (
        <DataTable
          label={`Use of SIM ${sim}`}
          rows={plan.usage}
          rowKey={(use) => use.cap}
          columns={[
            { header: 'Cap', cell: (use) => capNames[use.cap] },
            {
              header: 'Used',
              cell: (use) => (
                <>
                  {/* Past `low` the bar turns amber, at the cap red. */}
                  <meter
                    min={0}
                    max={use.limit}
                    low={use.limit * nearCapShare}
                    high={use.limit}
                    optimum={0}
                    value={Math.min(use.used, use.limit)}
                    aria-hidden="true"
                  />{' '}
                  {capUseText(use, plan.unit)}
                  {isCapReached(use) && <strong> — capped</strong>}
                </>
              ),
            },
            { header: 'Resets', cell: (use) => formatDateTime(use.resetsAt) },
          ]}
        />
      ) : (
        <p className="muted">No plan: this SIM sends without caps.</p>
      )}
      {plan && (
        <p className="hint">
          Every message this SIM sent in a period counts, those sent before the plan was saved too.
        </p>
      )}
      {may('settings:write') && (
        <form aria-label={`SIM ${sim} plan`} onSubmit={(event) => void submit(event)}>
          <p className="hint">Leave a cap empty for none. Weeks start on Monday, months on the 1st.</p>
          <div className="form-row">
            {countField('Per day', 'perDay')}
            {countField('Per week', 'perWeek')}
            {countField('Per month', 'perMonth')}
            <label>
              Counted in
              <select
                value={draft.unit}
                onChange={(event) => set({ unit: event.target.value as Draft['unit'] })}
              >
                <option value="messages">SMS</option>
                <option value="parts">SMS parts</option>
              </select>
            </label>
          </div>
          <div className="form-row">
            {countField('Distinct recipients', 'recipients')}
            <label>
              per
              <select
                value={draft.recipientsPeriod}
                onChange={(event) => set({ recipientsPeriod: event.target.value as Period })}
              >
                <option value="day">day</option>
                <option value="week">week</option>
                <option value="month">month</option>
              </select>
            </label>
            <label>
              Resets at
              <input
                type="time"
                value={draft.resetAt}
                onChange={(event) => set({ resetAt: event.target.value })}
              />
            </label>
            <label>
              Time zone
              <select value={draft.timeZone} onChange={(event) => set({ timeZone: event.target.value })}>
                {timeZoneChoices(draft.timeZone).map((zone) => (
                  <option key={zone} value={zone}>
                    {zone}
                  </option>
                ))}
              </select>
            </label>
            <label>
              When capped
              <select
                value={draft.whenCapped}
                onChange={(event) => set({ whenCapped: event.target.value as Draft['whenCapped'] })}
              >
                <option value="hold">its messages wait for the reset</option>
                <option value="spill">its messages go through another SIM</option>
              </select>
            </label>
          </div>
          <div className="form-actions">
            <button type="submit" className="primary" disabled={save.busy}>
              Save plan
            </button>
            {plan && (
              <button type="button" disabled={removal.busy} onClick={() => void remove()}>
                Remove plan
              </button>
            )}
            <FormResult result={save.result} />
            <FormResult result={removal.result} />
          </div>
        </form>
      )}
    </section>
  );
}
