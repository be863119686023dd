import { describe, expect, it } from 'vitest';
import {
  allSettingFields,
  fieldPath,
  settingsWithoutEffectHere,
} from '../../renderer/src/settings/settingCatalogue.js';
import {
  buildSettingsPatch,
  crossFieldProblems,
  fieldProblem,
  formValue,
  settingNamed,
} from '../../renderer/src/settings/settingFields.js';
import { settingDefaults } from '../../server/contract/schemas/settingsSchema.js';
import { privateTargetsLabel, privateTargetsSetting } from '../../server/devices/transport/networkTargets.js';

const field = (path: string) => {
  const found = allSettingFields.find((entry) => fieldPath(entry) === path);
  if (!found) throw new Error(`no field ${path}`);
  return found;
};

describe('the settings form', () => {
  it('labels the private-network setting as the error of a refused device address names it', () => {
    expect(field(privateTargetsSetting).label).toBe(privateTargetsLabel);
  });

  it('offers every setting the server knows that has an effect here, and nothing else', () => {
    const serverPaths = Object.entries(settingDefaults).flatMap(([group, keys]) =>
      Object.keys(keys).map((key) => `${group}.${key}`),
    );
    const offered = allSettingFields.map(fieldPath);
    expect([...offered, ...Object.keys(settingsWithoutEffectHere)].sort()).toEqual(serverPaths.sort());
    expect(offered.filter((path) => path in settingsWithoutEffectHere)).toEqual([]);
  });

  it('checks times of day as HH:mm, and asks for both ends of enabled working hours', () => {
    expect(fieldProblem(field('messages.work_hours_start'), '9:00')).toBeTypeOf('string');
    expect(fieldProblem(field('messages.work_hours_start'), '24:00')).toBeTypeOf('string');
    expect(fieldProblem(field('messages.work_hours_end'), '17:30')).toBeUndefined();
    expect(
      crossFieldProblems({ 'messages.work_hours_enabled': 'true', 'messages.work_hours_start': '09:00' }),
    ).toEqual({ 'messages.work_hours_end': expect.any(String) });
    expect(crossFieldProblems({ 'messages.work_hours_enabled': 'false' })).toEqual({});
  });

  it('never fills a write-only secret from what the server returned', () => {
    expect(formValue({ webhooks: { signing_key: 'leaked' } }, field('webhooks.signing_key'))).toBe('');
    expect(formValue({ messages: { limit_value: 25 } }, field('messages.limit_value'))).toBe('25');
  });

  it('checks whole numbers against the server bounds', () => {
    expect(fieldProblem(field('messages.limit_value'), '0')).toBe('At least 1.');
    expect(fieldProblem(field('logs.lifetime_days'), '3651')).toBe('At most 3650.');
    expect(fieldProblem(field('ping.interval_seconds'), '1.5')).toBe('Enter a whole number.');
    expect(fieldProblem(field('ping.interval_seconds'), '60')).toBeUndefined();
    expect(fieldProblem(field('gateway.cloud_url'), 'sms.example.com')).toBeTypeOf('string');
  });

  it('refuses a maximum pause below the minimum', () => {
    expect(
      crossFieldProblems({ 'messages.send_interval_min': '30', 'messages.send_interval_max': '10' }),
    ).toHaveProperty(['messages.send_interval_max']);
    expect(
      crossFieldProblems({ 'messages.send_interval_min': '10', 'messages.send_interval_max': '30' }),
    ).toEqual({});
  });

  it('sends only changed values, typed, and a secret only when one was typed', () => {
    const initial = {
      'messages.limit_value': '10',
      'messages.processing_order': 'LIFO',
      'webhooks.internet_required': 'true',
    };
    const values = {
      ...initial,
      'messages.limit_value': '25',
      'webhooks.internet_required': 'false',
      'webhooks.signing_key': 'new-key',
      'encryption.passphrase': '',
    };
    expect(buildSettingsPatch(values, initial)).toEqual({
      messages: { limit_value: 25 },
      webhooks: { internet_required: false, signing_key: 'new-key' },
    });
  });

  it('takes the setting an error body names from its field, never from its text', () => {
    expect(settingNamed('messages.limit_value')).toBe('messages.limit_value');
    expect(settingNamed('webhooks.retry_count')).toBe('webhooks.retry_count');
    // A field that is no setting of the screen (the whole body, an unknown key) marks none.
    expect(settingNamed('body')).toBeUndefined();
    expect(settingNamed('messages.limit_perod')).toBeUndefined();
    expect(settingNamed(undefined)).toBeUndefined();
  });
});
