import { settingsPatchSchema, settingsViewSchema } from '../../../contract/schemas/settingsSchema.js';
import type { SettingsService } from '../../../services/settings/settingsService.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

/**
 * GET, PATCH and PUT /settings. PATCH and PUT answer with the settings now in force.
 * The spec offers PUT only in Cloud/Private mode; we serve it as a full replacement
 * (keys left out return to their defaults) so clients written for those modes work unchanged.
 */
export function registerSettingsRoutes(api: ApiBuilder, deps: { settings: SettingsService }): void {
  api.route({
    method: 'get',
    path: '/settings',
    summary: 'Read the settings (write-only secrets are never returned)',
    tag: 'Settings',
    access: { scope: 'settings:read' },
    responses: {
      200: { description: 'The settings in force', schema: settingsViewSchema },
      ...errorResponses(...authErrors),
    },
    async handle() {
      return { status: 200, body: deps.settings.view() };
    },
  });

  api.route({
    method: 'patch',
    path: '/settings',
    summary: 'Change some settings; null resets one to its default',
    tag: 'Settings',
    access: { scope: 'settings:write' },
    body: settingsPatchSchema,
    responses: {
      200: { description: 'The settings in force', schema: settingsViewSchema },
      ...errorResponses(400, 415, ...authErrors),
    },
    async handle({ body }) {
      return { status: 200, body: await deps.settings.patch(body) };
    },
  });

  api.route({
    method: 'put',
    path: '/settings',
    summary: 'Replace all settings; keys left out return to their defaults',
    tag: 'Settings',
    access: { scope: 'settings:write' },
    body: settingsPatchSchema,
    responses: {
      200: { description: 'The settings in force', schema: settingsViewSchema },
      ...errorResponses(400, 415, ...authErrors),
    },
    async handle({ body }) {
      return { status: 200, body: await deps.settings.replace(body) };
    },
  });
}
