import {
  type SettingGroup,
  type Settings,
  type SettingsPatch,
  secretDestinations,
  settingDefaults,
  writeOnlySettings,
} from '../../contract/schemas/settingsSchema.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';

/**
 * The small persisted document the storage layer hands out (`openDocument(name, defaults)`):
 * `update` mutates `data` in place and resolves once the change is on disk.
 */
export interface SettingsDocument<T> {
  readonly data: T;
  update(mutator: (data: T) => void): Promise<void>;
}

/**
 * What is persisted: only the values the user set explicitly, so a changed default in a later
 * release reaches users who never touched that setting. The document store versions and
 * migrates the stored object.
 */
export interface StoredSettings {
  values: SettingsPatch;
  /** Dotted keys the private server manages in fleet mode: the API may not change them. */
  managed?: string[];
}

export const emptyStoredSettings: StoredSettings = { values: {} };

export type SettingsListener = (settings: Settings, changedKeys: readonly string[]) => void;

/** Settings with defaults applied; persisted through one document; listeners apply changes live. */
export class SettingsService {
  private readonly listeners = new Set<SettingsListener>();
  /**
   * The settings in force, built once per change: the scheduler and the desk read them for every
   * queued message, and applying every default anew was a few per cent of a POST's CPU. Frozen,
   * because every caller shares this one object.
   */
  private inForce?: Settings;

  constructor(
    private readonly document: SettingsDocument<StoredSettings>,
    private readonly logger: Logger,
  ) {}

  /** The settings in force, secrets included: for the gateway's own modules. */
  current(): Settings {
    this.inForce ??= deepFreeze(applyDefaults(structuredClone(this.document.data.values)));
    return this.inForce;
  }

  /** The settings as the API returns them: write-only secrets removed. */
  view(): Settings {
    const settings = structuredClone(this.current());
    for (const key of writeOnlySettings) {
      const [group, name] = key.split('.') as [SettingGroup, string];
      delete (settings[group] as Record<string, unknown>)[name];
    }
    return settings;
  }

  /** PATCH: sets the given keys; null resets a key to its default; other keys are kept. */
  patch(patch: SettingsPatch): Promise<Settings> {
    this.refuseManaged(patch);
    return this.write((values) => mergeInto(values, patch), undefined, patch);
  }

  /** Keys the private server manages (fleet mode), refused to PATCH and PUT. */
  managedKeys(): readonly string[] {
    return this.document.data.managed ?? [];
  }

  /**
   * Fleet mode: the private server's settings (its `GET /mobile/v1/settings`) are set and become
   * managed; keys it no longer sends keep their value and are the user's again.
   */
  async applyFromServer(patch: SettingsPatch): Promise<void> {
    const managed = Object.entries(patch).flatMap(([group, keys]) =>
      Object.keys(keys ?? {}).map((key) => `${group}.${key}`),
    );
    // One write: no reader sees the server's values before they are managed.
    await this.write((values) => mergeInto(values, patch), managed);
  }

  /**
   * PUT: full replacement. The spec offers PUT only in Cloud/Private mode; we serve it in Local
   * mode too, with the same meaning: every key not in the body goes back to its default,
   * secrets included.
   */
  replace(settings: SettingsPatch): Promise<Settings> {
    this.refuseManaged(settings);
    const kept = this.managedValues();
    return this.write(
      (values) => {
        for (const group of Object.keys(values) as SettingGroup[]) delete values[group];
        mergeInto(values, settings);
        mergeInto(values, kept);
      },
      undefined,
      settings,
    );
  }

  /**
   * Refuses a change that moves a stored secret's destination (`secretDestinations`) unless the
   * change gives the secret too: otherwise a token with settings:write could send the relay
   * password or the fleet token to a server of its choice.
   */
  private refuseSecretRedirect(
    before: Settings,
    after: Settings,
    changed: readonly string[],
    given: SettingsPatch,
  ): void {
    for (const [secret, destinations] of Object.entries(secretDestinations)) {
      const moved = destinations.find((key) => changed.includes(key));
      if (!moved || valueAt(before, secret) == null) continue;
      // A secret given again, or one no longer kept, goes nowhere it was not sent by its owner.
      if (valueAt(after, secret) == null || keyGiven(given, secret)) continue;
      throw new GatewayError(
        ErrorCode.Forbidden,
        `${moved}: changing where ${secret} is sent needs ${secret} given again in the same change`,
        { field: moved },
      );
    }
  }

  private refuseManaged(patch: SettingsPatch): void {
    const managed = new Set(this.managedKeys());
    for (const [group, keys] of Object.entries(patch)) {
      for (const key of Object.keys(keys ?? {})) {
        if (!managed.has(`${group}.${key}`)) continue;
        throw new GatewayError(
          ErrorCode.Forbidden,
          `${group}.${key}: is managed by the private server (fleet mode); change it there`,
          { field: `${group}.${key}` },
        );
      }
    }
  }

  /** The stored values of the managed keys, which a PUT keeps. */
  private managedValues(): SettingsPatch {
    const kept: Record<string, Record<string, unknown>> = {};
    const values = this.document.data.values as Record<string, Record<string, unknown> | undefined>;
    for (const path of this.managedKeys()) {
      const [group, key] = path.split('.') as [string, string];
      const value = values[group]?.[key];
      if (value === undefined) continue;
      kept[group] = { ...kept[group], [key]: value };
    }
    return kept as SettingsPatch;
  }

  /** Called after every change with the new settings and the dotted keys whose value changed. */
  onChange(listener: SettingsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `given`: what the caller sent, whose secret redirects are checked (not the private server's). */
  private async write(
    change: (values: SettingsPatch) => void,
    managed?: string[],
    given?: SettingsPatch,
  ): Promise<Settings> {
    const before = this.current();
    const candidate = structuredClone(this.document.data.values);
    change(candidate);
    const applied = applyDefaults(candidate);
    checkConsistency(applied);
    if (given) this.refuseSecretRedirect(before, applied, changedKeys(before, applied), given);
    await this.document.update((data) => {
      data.values = candidate;
      if (managed) data.managed = managed;
    });
    this.inForce = undefined;
    const after = this.current();
    const changed = changedKeys(before, after);
    if (changed.length > 0) {
      this.logger.info('settings changed', {
        keys: changed.map((key) => (isSecret(key) ? `${key} (secret)` : key)),
      });
      for (const listener of this.listeners) listener(after, changed);
    }
    return this.view();
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const field of Object.values(value)) deepFreeze(field);
    Object.freeze(value);
  }
  return value;
}

function applyDefaults(values: SettingsPatch): Settings {
  const settings = structuredClone(settingDefaults);
  mergeInto(settings as SettingsPatch, values);
  for (const group of Object.keys(settingDefaults) as SettingGroup[]) {
    const target = settings[group] as Record<string, unknown>;
    const defaults = settingDefaults[group] as Record<string, unknown>;
    for (const key of Object.keys(defaults)) target[key] ??= defaults[key];
  }
  return settings;
}

/** Copies set values over `target`; a null value removes the key (back to its default). */
function mergeInto(target: SettingsPatch, patch: SettingsPatch): void {
  for (const [group, keys] of Object.entries(patch) as [
    SettingGroup,
    Record<string, unknown> | undefined,
  ][]) {
    if (!keys) continue;
    target[group] ??= {};
    const destination = target[group] as Record<string, unknown>;
    for (const [key, value] of Object.entries(keys)) {
      if (value === undefined) continue;
      if (value === null) delete destination[key];
      else destination[key] = value;
    }
  }
}

/** Rules that span keys: checked on the merged result, so a PATCH of one side is checked too. */
function checkConsistency(settings: Settings): void {
  const { send_interval_min: min, send_interval_max: max } = settings.messages;
  if (min !== null && max !== null && min > max) {
    throw new GatewayError(
      ErrorCode.ValidationFailed,
      `messages.send_interval_min: must not exceed messages.send_interval_max (${max})`,
      { field: 'messages.send_interval_min' },
    );
  }
  if (settings.messages.limit_period !== 'Disabled' && settings.messages.limit_value === null) {
    throw new GatewayError(
      ErrorCode.ValidationFailed,
      `messages.limit_value: is required when messages.limit_period is ${settings.messages.limit_period}`,
      { field: 'messages.limit_value' },
    );
  }
  // As client-go and client-rs validate before sending: an enabled window needs both ends.
  if (settings.messages.work_hours_enabled) {
    for (const key of ['work_hours_start', 'work_hours_end'] as const) {
      if (settings.messages[key] !== null) continue;
      throw new GatewayError(
        ErrorCode.ValidationFailed,
        `messages.${key}: is required when messages.work_hours_enabled is true`,
        { field: `messages.${key}` },
      );
    }
  }
  if (settings.email_forward.enabled) {
    for (const key of ['relay_host', 'from', 'to'] as const) {
      if (settings.email_forward[key] !== null) continue;
      throw new GatewayError(
        ErrorCode.ValidationFailed,
        `email_forward.${key}: is required when email_forward.enabled is true`,
        { field: `email_forward.${key}` },
      );
    }
  }
}

function changedKeys(before: Settings, after: Settings): string[] {
  const changed: string[] = [];
  for (const group of Object.keys(after) as SettingGroup[]) {
    const old = before[group] as Record<string, unknown>;
    const now = after[group] as Record<string, unknown>;
    for (const key of Object.keys(now)) {
      if (old[key] !== now[key]) changed.push(`${group}.${key}`);
    }
  }
  return changed;
}

/** The value at a dotted key (`group.name`). */
function valueAt(settings: Settings, key: string): unknown {
  const [group, name] = key.split('.') as [string, string];
  return (settings as unknown as Record<string, Record<string, unknown> | undefined>)[group]?.[name];
}

function keyGiven(patch: SettingsPatch, key: string): boolean {
  const [group, name] = key.split('.') as [string, string];
  const keys = (patch as Record<string, Record<string, unknown> | null | undefined>)[group];
  return keys != null && Object.hasOwn(keys, name);
}

function isSecret(key: string): boolean {
  return writeOnlySettings.includes(key);
}
