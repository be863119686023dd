import { type FormEvent, type JSX, useEffect, useMemo, useState } from 'react';
import type {
  BooleanPreferenceKey,
  DesktopPreferences,
  PreferenceKey,
} from '../../../electron/ipcChannels.js';
import { ApiError, describeError } from '../api/apiClient.js';
import type { SettingsDocument } from '../api/types.js';
import { useApp } from '../appContext.js';
import { BridgePanel } from '../bridges/BridgePanel.js';
import { downloadBlob } from '../components/fileDownload.js';
import { RoleLimit } from '../components/RoleLimit.js';
import { ErrorNote, FormResult, Loading } from '../components/StatusViews.js';
import { FleetStatusPanel } from '../fleet/FleetStatusPanel.js';
import { isoDay } from '../format/timeFormat.js';
import { OwnSmppLogin } from '../people/SmppLoginControls.js';
import { usePerson } from '../session/person.js';
import { DatabasePanel } from '../settings/DatabasePanel.js';
import {
  allSettingFields,
  bridgeOfSection,
  bridgeSectionTitles,
  fieldPath,
  fleetSectionTitle,
  type SettingField,
  settingSections,
} from '../settings/settingCatalogue.js';
import {
  buildSettingsPatch,
  crossFieldProblems,
  differsFromDefault,
  fieldProblem,
  formValue,
  settingNamed,
} from '../settings/settingFields.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';

type Values = Record<string, string>;

function valuesOf(document: SettingsDocument | undefined): Values {
  return Object.fromEntries(allSettingFields.map((field) => [fieldPath(field), formValue(document, field)]));
}

export function SettingsScreen() {
  const { api, desktop } = useApp();
  const editable = usePerson().may('settings:write');
  const settings = useResource(() => api.settings(), [api]);
  // The form shows the stored values overlaid with the user's edits, so its very first render
  // already holds the stored values (no frame of empty fields).
  const initial = useMemo(() => valuesOf(settings.data), [settings.data]);
  // Edits belong to the document they were made on: a fresh one from the server (loaded, or
  // just saved) supersedes them.
  const [editState, setEditState] = useState<{ base?: SettingsDocument; values: Values }>({ values: {} });
  const edits = editState.base === settings.data ? editState.values : {};
  const setEdits = (next: Values) => setEditState({ base: settings.data, values: next });
  const values = { ...initial, ...edits };
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const { busy, result, run } = useAction();

  const problems: Record<string, string> = { ...crossFieldProblems(values) };
  for (const field of allSettingFields) {
    const problem = fieldProblem(field, values[fieldPath(field)] ?? '');
    if (problem) problems[fieldPath(field)] = problem;
  }
  const patch = buildSettingsPatch(values, initial);
  const dirty = Object.keys(patch).length > 0;

  async function send(body: SettingsDocument, done: string) {
    await run(async () => {
      setServerErrors({});
      try {
        const saved = await api.patchSettings(body);
        settings.setData(() => saved);
        return done;
      } catch (error) {
        // The server names the offending setting: show its reason next to that field as well.
        const named =
          error instanceof ApiError && error.kind === 'invalid' ? settingNamed(error.field) : undefined;
        if (named) setServerErrors({ [named]: describeError(error) });
        throw error;
      }
    });
  }

  function save(event: FormEvent) {
    event.preventDefault();
    if (Object.keys(problems).length > 0 || !dirty) return;
    void send(patch, 'Settings saved. They apply at once.');
  }

  /** Drops an unsaved edit; a stored value that is not the default goes back to it (null). */
  function reset(field: SettingField) {
    const { [fieldPath(field)]: _dropped, ...otherEdits } = edits;
    setEdits(otherEdits);
    if (differsFromDefault(settings.data, field)) {
      void send({ [field.group]: { [field.key]: null } }, `${field.label}: back to the default.`);
    }
  }

  return (
    <>
      <header className="page-head">
        <h1>Settings</h1>
      </header>
      <RoleLimit scope="settings:write" what="the settings" />
      {settings.loading && !settings.data && <Loading what="settings" />}
      {settings.error !== undefined && <ErrorNote error={settings.error} onRetry={settings.reload} />}
      {settings.data && (
        <form className="settings" onSubmit={save} noValidate>
          {settingSections.map((section) => (
            <fieldset key={section.title} className="panel" disabled={!editable}>
              <legend>{section.title}</legend>
              {section.fields.map((field) => {
                const path = fieldPath(field);
                return (
                  <SettingInput
                    key={path}
                    field={field}
                    value={values[path] ?? ''}
                    resettable={differsFromDefault(settings.data, field) || path in edits}
                    error={problems[path] ?? serverErrors[path]}
                    onChange={(value) => setEdits({ ...edits, [path]: value })}
                    onReset={() => reset(field)}
                    disabled={busy}
                  />
                );
              })}
              {section.title === fleetSectionTitle && <FleetStatusPanel />}
              {section.title === bridgeSectionTitles.smpp && <OwnSmppLogin />}
              <SectionBridgePanel title={section.title} />
            </fieldset>
          ))}
          {editable && (
            <div className="form-actions sticky-actions">
              <button
                type="submit"
                className="primary"
                disabled={busy || !dirty || Object.keys(problems).length > 0}
              >
                {busy ? 'Saving…' : 'Save settings'}
              </button>
              <button type="button" disabled={busy || !dirty} onClick={() => setEdits({})}>
                Discard changes
              </button>
              <FormResult result={result} />
            </div>
          )}
        </form>
      )}
      <DatabasePanel settings={settings.data} />
      <BackupPanel />
      {desktop && <DesktopPreferencesPanel />}
    </>
  );
}

function SettingInput(props: {
  field: SettingField;
  value: string;
  /** Something to reset: an unsaved edit, or a stored value other than the default. */
  resettable: boolean;
  error: string | undefined;
  disabled: boolean;
  onChange: (value: string) => void;
  onReset: () => void;
}) {
  const { field } = props;
  const id = `setting-${field.group}-${field.key}`;
  const describedBy = `${id}-help${props.error ? ` ${id}-error` : ''}`;
  let input: JSX.Element;
  if (field.kind === 'enum' || field.kind === 'boolean') {
    const options =
      field.kind === 'boolean'
        ? [
            { value: 'true', label: 'On' },
            { value: 'false', label: 'Off' },
          ]
        : (field.options ?? []);
    input = (
      <select
        id={id}
        name={fieldPath(field)}
        value={props.value}
        aria-describedby={describedBy}
        onChange={(event) => props.onChange(event.target.value)}
      >
        {props.value === '' && <option value="">Default ({field.defaultLabel})</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    );
  } else {
    input = (
      <input
        id={id}
        name={fieldPath(field)}
        type={inputType[field.kind]}
        inputMode={field.kind === 'integer' ? 'numeric' : undefined}
        autoComplete={field.kind === 'secret' ? 'new-password' : 'off'}
        placeholder={field.kind === 'secret' ? 'Set a new value' : `Default: ${field.defaultLabel}`}
        value={props.value}
        aria-invalid={props.error !== undefined}
        aria-describedby={describedBy}
        onChange={(event) => props.onChange(event.target.value)}
      />
    );
  }
  return (
    <div className="setting">
      <label htmlFor={id} className="setting-label">
        {field.label}
        {field.unit && <span className="muted"> ({field.unit})</span>}
      </label>
      <div className="setting-input">
        {input}
        <button
          type="button"
          className="link-button"
          disabled={props.disabled || !props.resettable}
          onClick={props.onReset}
        >
          {field.kind === 'secret' ? 'Clear' : 'Reset to default'}
        </button>
      </div>
      <p id={`${id}-help`} className="hint">
        {field.meaning} Default: {field.defaultLabel}.
        {field.min !== undefined && field.max !== undefined ? ` Allowed: ${field.min}–${field.max}.` : ''}
      </p>
      {props.error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}

/** Downloads a copy of the message database, taken while the gateway keeps running. */
function BackupPanel() {
  const { api } = useApp();
  const { busy, result, run } = useAction();
  function download() {
    void run(async () => {
      const fileName = `sms-gateway-backup-${isoDay(Date.now())}.db`;
      downloadBlob(fileName, await api.backup());
      return `Backup downloaded as ${fileName}.`;
    });
  }
  return (
    <section className="panel" aria-labelledby="backup-title">
      <h2 id="backup-title">Backup</h2>
      <p className="hint">
        A copy of every message, received message, log entry and webhook delivery (one SQLite file), taken
        without stopping the gateway.
      </p>
      <button type="button" disabled={busy} onClick={download}>
        {busy ? 'Preparing backup…' : 'Download backup'}
      </button>
      <FormResult result={result} />
    </section>
  );
}

const preferenceLabels: Record<BooleanPreferenceKey, { label: string; meaning: string }> = {
  notifyOnIncoming: {
    label: 'Notify me of incoming SMS',
    meaning: 'A desktop notification for each received message.',
  },
  showSmsPreviews: {
    label: 'Show the message text in notifications',
    meaning: 'Off: the notification names the sender only, as it may show on the lock screen.',
  },
  notifyOnProblems: {
    label: 'Notify me when something needs attention',
    meaning:
      'A modem offline, messages stuck in the queue, delivery reports or webhook deliveries failing, the gateway stopped.',
  },
  keepAwakeWhileQueued: {
    label: 'Keep this computer awake while messages are queued',
    meaning:
      'On by default: the computer does not go to sleep while messages wait to be sent (a campaign too); the screen may still turn off.',
  },
  startAtLogin: { label: 'Start when I log in', meaning: 'The gateway starts with your computer session.' },
  closeToTray: {
    label: 'Keep running when the window is closed',
    meaning: 'Closing the window hides it to the tray; the gateway keeps sending.',
  },
  useSimulator: {
    label: 'Run the simulated modem (demo)',
    meaning:
      'A built-in modem to try the gateway without hardware: its messages reach no phone and are marked Simulated. Once a real modem is plugged in, it takes only messages sent to it by device id. Changing this restarts the gateway.',
  },
};

function DesktopPreferencesPanel() {
  const { desktop } = useApp();
  const [preferences, setPreferences] = useState<DesktopPreferences | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  useEffect(() => {
    desktop?.getPreferences().then(setPreferences, setError);
  }, [desktop]);
  if (!desktop) return null;
  async function change<Key extends PreferenceKey>(key: Key, value: DesktopPreferences[Key]) {
    try {
      setPreferences(await desktop?.setPreference(key, value));
      setError(undefined);
    } catch (failure) {
      setError(failure);
    }
  }
  return (
    <section className="panel" aria-labelledby="desktop-title">
      <h2 id="desktop-title">This computer</h2>
      {error !== undefined && <FormResult result={{ ok: false, error }} />}
      {!preferences && error === undefined && <Loading what="preferences" />}
      {preferences &&
        (Object.keys(preferenceLabels) as BooleanPreferenceKey[]).map((key) => (
          <label key={key} className="checkbox setting">
            <input
              type="checkbox"
              checked={preferences[key]}
              onChange={(event) => void change(key, event.target.checked)}
            />
            <span>
              {preferenceLabels[key].label}
              <span className="hint"> {preferenceLabels[key].meaning}</span>
            </span>
          </label>
        ))}
      {preferences && (
        <ListenPortField port={preferences.listenPort} onSave={(port) => change('listenPort', port)} />
      )}
    </section>
  );
}

/** The port of the API and this window; saving restarts the gateway there (the window follows). */
function ListenPortField(props: { port: number | null; onSave: (port: number | null) => Promise<void> }) {
  const [text, setText] = useState(props.port === null ? '' : String(props.port));
  const parsed = text.trim() === '' ? null : Number(text);
  const valid = parsed === null || (Number.isInteger(parsed) && parsed >= 1 && parsed <= 65_535);
  return (
    <form
      className="form-row setting"
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) void props.onSave(parsed);
      }}
    >
      <label>
        Port of the API and this window
        <input
          inputMode="numeric"
          value={text}
          placeholder="8080"
          aria-invalid={!valid}
          onChange={(event) => setText(event.target.value)}
        />
      </label>
      <button type="submit" disabled={!valid || parsed === props.port}>
        Save and restart the gateway
      </button>
      <span className="hint">
        Empty: 8080. Apps calling the API must use the new port. Overrides the port of --listen and
        SMSGW_LISTEN.
      </span>
    </form>
  );
}

const inputType: Record<Exclude<SettingField['kind'], 'enum' | 'boolean'>, string> = {
  integer: 'text',
  secret: 'password',
  url: 'url',
  time: 'time',
  text: 'text',
};

/** A bridge's state and test button under its own settings section; nothing under others. */
function SectionBridgePanel(props: { title: string }) {
  const bridge = bridgeOfSection(props.title);
  return bridge ? <BridgePanel name={bridge} /> : null;
}
