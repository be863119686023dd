import { useEffect, useState } from 'react';
import type { DeviceRecord } from '../api/types.js';
import { searchNeedle } from '../desk/typedNumbers.js';
import { useDefaultCountry } from '../desk/useDefaultCountry.js';
import { formatNumber } from '../format/numberFormat.js';
import { localInputOf, localInputToIso } from '../format/timeFormat.js';
import { modemLabel } from '../modems/modemLabel.js';
import { IdSelect } from './IdSelect.js';

/** Filter inputs shared by Messages and Inbox. */

export function DeviceSelect(props: {
  devices: DeviceRecord[] | undefined;
  value: string;
  onChange: (deviceId: string) => void;
  label?: string;
  emptyLabel?: string;
  id?: string;
}) {
  return (
    <IdSelect
      label={props.label ?? 'Modem'}
      none={props.emptyLabel ?? 'All modems'}
      choices={props.devices}
      nameOf={modemLabel}
      value={props.value}
      onChange={props.onChange}
      id={props.id}
    />
  );
}

/** A text box that reports its value once typing pauses, so each key press is not a request. */
export function SearchInput(props: {
  value: string;
  onChange: (value: string) => void;
  label: string;
  placeholder?: string;
}) {
  const [text, setText] = useState(props.value);
  const { onChange, value } = props;
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => onChange(text), 350);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);
  return (
    <label>
      {props.label}
      <input
        type="search"
        value={text}
        placeholder={props.placeholder}
        onChange={(event) => setText(event.target.value)}
      />
    </label>
  );
}

export function DateRangeInputs(props: {
  from: string;
  to: string;
  onChange: (range: { from: string; to: string }) => void;
}) {
  return (
    <>
      <DateTimeText
        label="From"
        value={props.from}
        onChange={(from) => props.onChange({ from, to: props.to })}
      />
      <DateTimeText label="To" value={props.to} onChange={(to) => props.onChange({ from: props.from, to })} />
    </>
  );
}

/**
 * A point in time typed as the tables write it (`2026-11-22 14:05`, a date alone meaning its
 * midnight), not as the browser's own date input would show it in the user's locale: filters and
 * lists read the same. `value` and `onChange` use the datetime-local form (`2026-11-22T14:05`);
 * text that is not a time yet stays in the box, marked, without changing the filter.
 */
function DateTimeText(props: { label: string; value: string; onChange: (value: string) => void }) {
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const shown = draft ?? props.value.replace('T', ' ');
  const invalid = draft !== undefined && localInputOf(draft) === undefined;
  return (
    <label>
      {props.label}
      <input
        type="text"
        inputMode="numeric"
        placeholder="YYYY-MM-DD hh:mm"
        value={shown}
        aria-invalid={invalid}
        onChange={(event) => {
          const typed = event.target.value;
          const local = localInputOf(typed);
          setDraft(local === undefined ? typed : undefined);
          if (local !== undefined) props.onChange(local);
        }}
        onBlur={() => setDraft(undefined)}
      />
    </label>
  );
}

export function Pager(props: {
  offset: number;
  pageSize: number;
  shown: number;
  total: number | undefined;
  onOffset: (offset: number) => void;
}) {
  const { offset, pageSize, shown, total } = props;
  const hasMore = total === undefined ? shown >= pageSize : offset + shown < total;
  if (offset === 0 && !hasMore) {
    return <p className="muted small">{formatNumber(total ?? shown)} in total</p>;
  }
  return (
    <nav className="pager" aria-label="Pages">
      <button
        type="button"
        disabled={offset === 0}
        onClick={() => props.onOffset(Math.max(0, offset - pageSize))}
      >
        Newer
      </button>
      <span className="muted">
        {formatNumber(offset + 1)}–{formatNumber(offset + shown)}
        {total !== undefined ? ` of ${formatNumber(total)}` : ''}
      </span>
      <button type="button" disabled={!hasMore} onClick={() => props.onOffset(offset + pageSize)}>
        Older
      </button>
    </nav>
  );
}

/** The filters Messages and Inbox both have, as typed (`from`/`to` in datetime-local form). */
export interface SharedFilters {
  /** The list's own first filter: a message's state, a received SMS's type ('' for all). */
  kind: string;
  deviceId: string;
  from: string;
  to: string;
  search: string;
}

const noFilters: SharedFilters = { kind: '', deviceId: '', from: '', to: '', search: '' };

/** The shared filters and the page offset; any change of filter goes back to the first page. */
export function useSharedFilters() {
  const [values, setValues] = useState(noFilters);
  const [offset, setOffset] = useState(0);
  const change = (next: Partial<SharedFilters>) => {
    setValues((current) => ({ ...current, ...next }));
    setOffset(0);
  };
  const defaultCountry = useDefaultCountry();
  const query = {
    deviceId: values.deviceId || undefined,
    from: localInputToIso(values.from),
    to: localInputToIso(values.to),
    search: searchNeedle(values.search, defaultCountry) || undefined,
  };
  return { values, change, query, offset, setOffset };
}

/** The filter row of Messages and Inbox: the list's kind, the modem, the period and a search. */
export function SharedFilterControls(props: {
  /** The choices of `kind`, with the first choice's words for all ("All states"). */
  kind: { label: string; all: string; choices: readonly { id: string; name: string }[] };
  devices: DeviceRecord[] | undefined;
  values: SharedFilters;
  onChange: (next: Partial<SharedFilters>) => void;
  searchPlaceholder: string;
}) {
  const { values, onChange } = props;
  return (
    <section className="filters" aria-label="Filters">
      <IdSelect
        label={props.kind.label}
        none={props.kind.all}
        choices={props.kind.choices}
        value={values.kind}
        onChange={(kind) => onChange({ kind })}
      />
      <DeviceSelect
        devices={props.devices}
        value={values.deviceId}
        onChange={(deviceId) => onChange({ deviceId })}
      />
      <DateRangeInputs from={values.from} to={values.to} onChange={(range) => onChange(range)} />
      <SearchInput
        label="Search"
        placeholder={props.searchPlaceholder}
        value={values.search}
        onChange={(search) => onChange({ search })}
      />
    </section>
  );
}
