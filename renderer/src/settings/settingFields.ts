import { serverUrlProblem } from '../../../server/contract/domain/serverUrl.js';
import { settingDefaults } from '../../../server/contract/schemas/settingsSchema.js';
import type { SettingsDocument } from '../api/types.js';
import { allSettingFields, fieldPath, type SettingField, serverSchemaOf } from './settingCatalogue.js';

/**
 * The Settings form's rules over the catalogue (settingCatalogue.ts): a stored value as the form
 * shows it, what keeps typed text from being saved, and the PATCH body for what changed.
 */

/** The form's text for a stored value ('' when unset; secrets are never read back). */
export function formValue(document: SettingsDocument | undefined, field: SettingField): string {
  if (field.kind === 'secret') return '';
  const value = document?.[field.group]?.[field.key];
  return value === undefined || value === null ? '' : String(value);
}

/** A reason the typed text cannot be saved, or undefined. */
export function fieldProblem(field: SettingField, text: string): string | undefined {
  if (text === '') return undefined;
  if (field.kind === 'integer') {
    if (!/^\d+$/.test(text.trim())) return 'Enter a whole number.';
    const value = Number(text);
    if (field.min !== undefined && value < field.min) return `At least ${field.min}.`;
    if (field.max !== undefined && value > field.max) return `At most ${field.max}.`;
  }
  if (field.kind === 'url') {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return 'Enter a complete address, e.g. https://sms.example.com.';
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'Use an http:// or https:// address.';
    if (fieldPath(field) === 'gateway.cloud_url' && serverUrlProblem(text)) {
      return url.username !== '' || url.password !== ''
        ? 'Leave the login out of the address: give it as the private token (Basic <login>:<password>).'
        : 'Use https:// (plain http only to this computer: localhost, 127.0.0.1 or [::1]).';
    }
  }
  if (field.kind === 'enum' && !field.options?.some((option) => option.value === text))
    return 'Choose a value.';
  if (field.kind === 'time' && !serverSchemaOf(field).safeParse(text).success)
    return 'Enter a time as HH:mm, e.g. 09:00.';
  return undefined;
}

/** Rules across fields; keyed by path. */
export function crossFieldProblems(values: Record<string, string>): Record<string, string> {
  const problems: Record<string, string> = {};
  const min = values['messages.send_interval_min'];
  const max = values['messages.send_interval_max'];
  if (min && max && Number(min) > Number(max)) {
    problems['messages.send_interval_max'] = 'Must not be below the minimum pause.';
  }
  if (values['messages.work_hours_enabled'] === 'true') {
    for (const end of ['messages.work_hours_start', 'messages.work_hours_end']) {
      if (!values[end]) problems[end] = 'Needed while sending only during working hours.';
    }
  }
  return problems;
}

/**
 * The PATCH body for what changed. Clearing a field is left to “Reset to default” (explicit
 * null); an emptied text box is not taken as a reset, and secrets are sent only when typed.
 */
export function buildSettingsPatch(
  values: Record<string, string>,
  initial: Record<string, string>,
): SettingsDocument {
  const patch: SettingsDocument = {};
  for (const field of allSettingFields) {
    const path = fieldPath(field);
    const value = values[path] ?? '';
    if (value === '' || value === initial[path]) continue;
    let typed: unknown = value;
    if (field.kind === 'integer') typed = Number(value);
    if (field.kind === 'boolean') typed = value === 'true';
    const group = patch[field.group] ?? {};
    group[field.key] = typed;
    patch[field.group] = group;
  }
  return patch;
}

/** The setting an error body's `field` names (`messages.limit_value`), if the screen shows it. */
export function settingNamed(field: string | undefined): string | undefined {
  return allSettingFields.some((setting) => fieldPath(setting) === field) ? field : undefined;
}

/**
 * Whether the stored value differs from the gateway's default (GET /settings fills defaults in,
 * so "set" alone does not mean "changed"). Secrets are never read back: they may always be cleared.
 */
export function differsFromDefault(document: SettingsDocument | undefined, field: SettingField): boolean {
  if (field.kind === 'secret') return true;
  const stored = document?.[field.group]?.[field.key] ?? null;
  const defaults = settingDefaults as unknown as SettingsDocument;
  return stored !== (defaults[field.group]?.[field.key] ?? null);
}
