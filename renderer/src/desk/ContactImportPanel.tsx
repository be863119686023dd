import { useState } from 'react';
import { parseCsvTable } from '../../../server/contract/domain/csvTable.js';
import { useApp } from '../appContext.js';
import { DataTable } from '../components/DataTable.js';
import { FormResult } from '../components/StatusViews.js';
import { useAction } from '../useAction.js';
import { guessMapping } from './contactCsv.js';
import type { ImportMapping, ImportReport } from './deskTypes.js';

const mappedFields: { field: keyof ImportMapping; label: string }[] = [
  { field: 'phoneNumber', label: 'Phone number' },
  { field: 'name', label: 'Name' },
  { field: 'groups', label: 'Groups' },
  { field: 'notes', label: 'Notes' },
];

/**
 * Import from CSV: pick the file, map its columns, preview (merged duplicates, one line per row
 * error, the first 100 listed), then import — which the server does only with no errors.
 */
export function ContactImportPanel(props: { onImported: () => void }) {
  const { api } = useApp();
  const [csv, setCsv] = useState<string>();
  const [columns, setColumns] = useState<string[]>([]);
  const [mapping, setMapping] = useState<ImportMapping>({ phoneNumber: '' });
  const [report, setReport] = useState<ImportReport>();
  const preview = useAction();
  const commit = useAction();

  async function choose(file: File | undefined) {
    setReport(undefined);
    if (!file) return;
    const text = await file.text();
    const table = parseCsvTable(text);
    setCsv(text);
    setColumns(table.columns);
    setMapping(guessMapping(table.columns));
  }

  async function importRows(skipRowsWithErrors: boolean) {
    if (csv === undefined) return;
    await commit.run(async () => {
      const done = await api.importContacts(csv, mapping, { commit: true, skipRowsWithErrors });
      setReport(undefined);
      setCsv(undefined);
      props.onImported();
      const skipped = done.errorCount > 0 ? `; ${done.errorCount} rows with errors left out` : '';
      return `Imported: ${done.imported?.created ?? 0} new, ${done.imported?.updated ?? 0} updated${skipped}.`;
    });
  }

  const setColumn = (field: keyof ImportMapping, column: string) => {
    setReport(undefined);
    setMapping({ ...mapping, [field]: column || undefined });
  };

  return (
    <section className="panel" aria-label="Import contacts">
      <h2>Import contacts from CSV</h2>
      <div className="field">
        <label htmlFor="import-file">CSV file</label>
        <input
          id="import-file"
          type="file"
          accept=".csv,text/csv"
          onChange={(event) => void choose(event.target.files?.[0])}
        />
        <span className="hint">
          UTF-8 or Excel's CSV (comma or semicolon); the first row names the columns.
        </span>
      </div>
      {csv !== undefined && (
        <div className="form-row">
          {mappedFields.map(({ field, label }) => (
            <label key={field}>
              {label}
              <select value={mapping[field] ?? ''} onChange={(event) => setColumn(field, event.target.value)}>
                {field !== 'phoneNumber' && <option value="">(none)</option>}
                {columns.map((column) => (
                  <option key={column} value={column}>
                    {column}
                  </option>
                ))}
              </select>
            </label>
          ))}
        </div>
      )}
      {csv !== undefined && (
        <div className="form-actions">
          <button
            type="button"
            disabled={preview.busy}
            onClick={() =>
              void preview.run(async () => {
                setReport(await api.importContacts(csv, mapping));
                return undefined;
              })
            }
          >
            Preview
          </button>
          <button
            type="button"
            className="primary"
            disabled={commit.busy || !report || report.errorCount > 0 || report.contacts.length === 0}
            onClick={() => void importRows(false)}
          >
            Import {report ? `${report.contacts.length} contacts` : ''}
          </button>
          {report && report.errorCount > 0 && report.contacts.length > 0 && (
            <button type="button" disabled={commit.busy} onClick={() => void importRows(true)}>
              Skip the rows with errors, import {report.contacts.length} contacts
            </button>
          )}
          <FormResult result={preview.result} />
        </div>
      )}
      <FormResult result={commit.result} />
      {report && <ImportPreview report={report} />}
    </section>
  );
}

function ImportPreview(props: { report: ImportReport }) {
  const { report } = props;
  return (
    <section aria-label="Import preview">
      <p role="status">
        {report.rows} rows: {report.contacts.length} contacts
        {report.duplicates > 0 ? `, ${report.duplicates} duplicate rows merged by number` : ''}
        {report.errorCount > 0
          ? `, ${report.errorCount} error${report.errorCount === 1 ? '' : 's'} — fix them, or skip those rows`
          : ''}
        .{report.errorCount > report.errors.length ? ` The first ${report.errors.length} are listed.` : ''}
      </p>
      {report.errors.length > 0 && (
        <DataTable
          label="Rows with errors"
          rows={report.errors}
          rowKey={(error) => `${error.line}-${error.field}`}
          columns={[
            { header: 'Line', cell: (error) => error.line },
            { header: 'Column', cell: (error) => columnLabel(error.field) },
            { header: 'Problem', cell: (error) => error.message },
          ]}
        />
      )}
      <DataTable
        label="Contacts to import"
        rows={report.contacts.slice(0, 50)}
        rowKey={(contact) => contact.phoneNumber}
        columns={[
          { header: 'Line', cell: (contact) => contact.line },
          { header: 'Name', cell: (contact) => contact.name },
          { header: 'Number', className: 'mono', cell: (contact) => contact.phoneNumber },
          { header: 'Groups', cell: (contact) => contact.groups.join(', ') },
          { header: 'Import as', cell: (contact) => (contact.existing ? 'updates a contact' : 'new') },
        ]}
      />
      {report.contacts.length > 50 && <p className="muted">and {report.contacts.length - 50} more.</p>}
    </section>
  );
}

/** `name` → "Name", `mapping.groups` → "Groups": the label the mapping above shows for the field. */
function columnLabel(field: string): string {
  const mapped = mappedFields.find((entry) => field.replace(/^mapping\./, '') === entry.field);
  return mapped?.label ?? field;
}
