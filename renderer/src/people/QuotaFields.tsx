import type { AppView } from '../api/types.js';

/** An app's quota as its form fields hold it: empty counts mean no such limit. */
export interface QuotaDraft {
  perDay: string;
  perMonth: string;
  resetAt: string;
  timeZone: string;
}

/** A quota as the API takes it: the view's without the usage the gateway counts. */
type Quota = Omit<NonNullable<AppView['quota']>, 'usage'>;

/** The fields of a stored quota, or empty ones in this computer's time zone. */
export function quotaDraft(quota: Quota | undefined): QuotaDraft {
  return {
    perDay: quota?.perDay === undefined ? '' : String(quota.perDay),
    perMonth: quota?.perMonth === undefined ? '' : String(quota.perMonth),
    resetAt: quota?.resetAt ?? '00:00',
    timeZone: quota?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
}

/** The quota the API takes; undefined when neither count is given (no quota). */
export function quotaOf(draft: QuotaDraft): Quota | undefined {
  const limits = {
    ...(draft.perDay.trim() === '' ? {} : { perDay: Number(draft.perDay) }),
    ...(draft.perMonth.trim() === '' ? {} : { perMonth: Number(draft.perMonth) }),
  };
  return Object.keys(limits).length === 0
    ? undefined
    : { ...limits, resetAt: draft.resetAt, timeZone: draft.timeZone };
}

/** Messages a day and a month, and when and in which zone the day starts; the API checks them. */
export function QuotaFields(props: { draft: QuotaDraft; onChange: (draft: QuotaDraft) => void }) {
  const { draft, onChange } = props;
  const field = (name: keyof QuotaDraft) => ({
    value: draft[name],
    onChange: (event: { target: { value: string } }) => onChange({ ...draft, [name]: event.target.value }),
  });
  return (
    <>
      <label>
        Messages a day
        <input inputMode="numeric" {...field('perDay')} />
      </label>
      <label>
        Messages a month
        <input inputMode="numeric" {...field('perMonth')} />
      </label>
      <label>
        Resets at
        <input type="time" {...field('resetAt')} />
      </label>
      <label>
        Time zone
        <input {...field('timeZone')} />
      </label>
    </>
  );
}
