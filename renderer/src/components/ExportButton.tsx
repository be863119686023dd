import { useState } from 'react';
import { describeError } from '../api/apiClient.js';
import { type CsvColumn, fetchAllPages, type Page, toCsv } from '../format/csv.js';
import { isoDay } from '../format/timeFormat.js';
import { downloadText } from './fileDownload.js';

/** "Export CSV": every page of the current filter, built in the browser. */
export function ExportButton<Row>(props: {
  fileStem: string;
  columns: readonly CsvColumn<Row>[];
  fetchPage: (limit: number, offset: number) => Promise<Page<Row>>;
  /** The button's words; default "Export CSV". */
  label?: string;
}) {
  const [state, setState] = useState<{ busy: boolean; error?: unknown }>({ busy: false });
  async function run() {
    setState({ busy: true });
    try {
      const rows = await fetchAllPages(props.fetchPage);
      downloadText(`${props.fileStem}-${isoDay(Date.now())}.csv`, toCsv(props.columns, rows));
      setState({ busy: false });
    } catch (error) {
      setState({ busy: false, error });
    }
  }
  return (
    <span className="inline-action">
      <button type="button" disabled={state.busy} onClick={() => void run()}>
        {state.busy ? 'Exporting…' : (props.label ?? 'Export CSV')}
      </button>
      {state.error !== undefined && (
        <span className="form-error" role="alert">
          {describeError(state.error)}
        </span>
      )}
    </span>
  );
}
