import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { apiCall, newTab, openScreen, signIn, startUiGateway, type UiGateway } from './uiGateway.js';

/**
 * Issue 39, routing in the window: the owner adds a rule (and sees the API's refusal at the field
 * it names), moves it, tries numbers, edits a rule and deletes one; a viewer sees the rules and tries numbers, and has no
 * form nor buttons to change them. A rule by operator is chosen from the operators the data
 * names for a country, and "Try" shows a number's operator.
 */
let ui: UiGateway;
let browser: Browser;
const viewer = { name: 'vera', password: 'viewer-pass-12' };

beforeAll(async () => {
  await buildUi();
  ui = await startUiGateway({ simulatedModems: 2 });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
});

/**
 * The two simulated modems, one rule sending every number through the second, and the Routing
 * screen open on it in a fresh signed-in context.
 */
async function routingScreenWithCatchAll() {
  const devices = await apiCall<{ id: string }[]>(ui.baseUrl, 'GET', '/devices');
  const [first, second] = devices.map((device) => device.id);
  if (first === undefined || second === undefined) throw new Error('two simulated modems expected');
  await apiCall(ui.baseUrl, 'PUT', '/gateway/v1/routing', {
    rules: [{ prefix: '+', deviceIds: [second] }],
  });
  const context = await browser.newContext();
  const page = await newTab(context);
  await signIn(page, ui.baseUrl, ui);
  await openScreen(page, 'Routing');
  const table = page.getByRole('table', { name: 'Routing rules' });
  await table.getByText('+ (every number)').waitFor();
  const form = page.getByRole('form', { name: 'Add a rule' });
  return { first, second, context, page, table, form };
}

describe('the Routing screen', () => {
  it('adds and orders rules, names a refused field, and tries a number', async () => {
    const { first, second, context, page, table, form } = await routingScreenWithCatchAll();
    await form.getByLabel('Numbers starting with').fill('49');
    await form.getByRole('group', { name: 'Modems', exact: true }).getByRole('checkbox').first().check();
    await form.getByRole('button', { name: 'Add rule' }).click();
    // The API names `rules[1].prefix`: the refusal shows under the prefix, which is marked.
    const refusal = form.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('rules[1].prefix');
    expect(await form.getByLabel('Numbers starting with').getAttribute('aria-invalid')).toBe('true');

    await form.getByLabel('Numbers starting with').fill('+49');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await table.getByRole('cell', { name: '+49', exact: true }).waitFor();
    // Added last, behind "+", it would never match: move it first.
    await page.getByRole('button', { name: 'Move rule 2 up' }).click();
    await table.locator('tbody tr').first().getByRole('cell', { name: '+49', exact: true }).waitFor();
    const stored = await apiCall<{ rules: { prefix: string; deviceIds: string[] }[] }>(
      ui.baseUrl,
      'GET',
      '/gateway/v1/routing',
    );
    expect(stored.rules).toMatchObject([
      { prefix: '+49', deviceIds: [first] },
      { prefix: '+', deviceIds: [second] },
    ]);

    const tryForm = page.getByRole('form', { name: 'Try a number' });
    await tryForm.getByLabel('Phone number').fill('+4915112345678');
    await tryForm.getByRole('button', { name: 'Try' }).click();
    const answer = tryForm.getByRole('status', { name: 'Where it goes' });
    await answer.waitFor();
    expect(await answer.textContent()).toContain(`rule +49: ${first}`);
    await tryForm.getByLabel('Phone number').fill('+15551230000');
    await tryForm.getByRole('button', { name: 'Try' }).click();
    await answer.getByText(`rule +: ${second}`).waitFor();

    // Edit the +49 rule to fall back to the second modem, then delete the catch-all.
    await page.getByRole('button', { name: 'Edit rule 1' }).click();
    const edit = page.getByRole('form', { name: 'Edit rule 1' });
    expect(await edit.getByLabel('Numbers starting with').inputValue()).toBe('+49');
    await edit
      .getByRole('group', { name: /^Fallback modems/ })
      .getByRole('checkbox')
      .nth(1)
      .check();
    await edit.getByRole('button', { name: 'Save rule' }).click();
    await page.getByRole('form', { name: 'Add a rule' }).waitFor();
    await page.getByRole('button', { name: 'Delete rule 2' }).click();
    await table.locator('tbody tr').nth(1).waitFor({ state: 'detached' });
    const edited = await apiCall<{ rules: unknown[] }>(ui.baseUrl, 'GET', '/gateway/v1/routing');
    expect(edited.rules).toMatchObject([{ prefix: '+49', deviceIds: [first], fallbackDeviceIds: [second] }]);
    expect(edited.rules).toHaveLength(1);
    await context.close();

    await apiCall(ui.baseUrl, 'POST', '/gateway/v1/users', { ...viewer, role: 'viewer' });
    const viewerContext = await browser.newContext();
    const viewerPage = await newTab(viewerContext);
    await signIn(viewerPage, ui.baseUrl, { username: viewer.name, password: viewer.password });
    await openScreen(viewerPage, 'Routing');
    await viewerPage
      .getByRole('table', { name: 'Routing rules' })
      .getByRole('cell', { name: '+49' })
      .waitFor();
    expect(await viewerPage.getByRole('form', { name: 'Add a rule' }).count()).toBe(0);
    expect(await viewerPage.getByRole('button', { name: /^(Edit|Delete|Move) rule/ }).count()).toBe(0);
    const viewerTry = viewerPage.getByRole('form', { name: 'Try a number' });
    await viewerTry.getByLabel('Phone number').fill('+4915112345678');
    await viewerTry.getByRole('button', { name: 'Try' }).click();
    await viewerTry.getByText(`rule +49: ${first}`).waitFor();
    await viewerContext.close();
  });

  it('adds a rule by operator from the country’s list, and Try shows the number’s operator', async () => {
    const { first, second, context, page, table, form } = await routingScreenWithCatchAll();
    await form.getByRole('radio', { name: 'Operator' }).check();
    expect(await form.getByLabel('Numbers starting with').count()).toBe(0);
    await form.getByRole('combobox', { name: 'Country' }).selectOption('DE');
    await form.getByRole('group', { name: 'Modems', exact: true }).getByRole('checkbox').first().check();
    // No operator chosen: the API names `rules[1].operator`, shown under the operator's list.
    await form.getByRole('button', { name: 'Add rule' }).click();
    const refusal = form.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('rules[1].operator');
    const operators = form.getByRole('combobox', { name: 'Operator' });
    expect(await operators.getAttribute('aria-invalid')).toBe('true');
    // The list is the data's for Germany: Vodafone is there, a British-only name is not.
    const offered = await operators.locator('option').allTextContents();
    expect(offered).toEqual(expect.arrayContaining(['Vodafone', 'T-Mobile', 'O2']));
    expect(offered).not.toContain('EE');
    await operators.selectOption('Vodafone');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await table.getByRole('cell', { name: 'operator Vodafone (DE)' }).waitFor();
    await page.getByRole('button', { name: 'Move rule 2 up' }).click();
    await table.locator('tbody tr').first().getByRole('cell', { name: 'operator Vodafone (DE)' }).waitFor();
    const stored = await apiCall<{ rules: unknown[] }>(ui.baseUrl, 'GET', '/gateway/v1/routing');
    expect(stored.rules).toMatchObject([
      { operator: 'Vodafone', country: 'DE', deviceIds: [first] },
      { prefix: '+', deviceIds: [second] },
    ]);

    const tryForm = page.getByRole('form', { name: 'Try a number' });
    const answer = tryForm.getByRole('status', { name: 'Where it goes' });
    await tryForm.getByLabel('Phone number').fill('+4917212345678');
    await tryForm.getByRole('button', { name: 'Try' }).click();
    await answer.getByText(`rule Vodafone (DE): ${first}`).waitFor();
    expect(await answer.textContent()).toContain('Operator: Vodafone (DE)');
    await tryForm.getByLabel('Phone number').fill('+4917012345678');
    await tryForm.getByRole('button', { name: 'Try' }).click();
    await answer.getByText('Operator: T-Mobile (DE)').waitFor();
    expect(await answer.textContent()).toContain(`rule +: ${second}`);
    await tryForm.getByLabel('Phone number').fill('+4930123456');
    await tryForm.getByRole('button', { name: 'Try' }).click();
    await answer.getByText('Operator: operator unknown for this number').waitFor();

    // Editing shows the stored operator rule as it is.
    await page.getByRole('button', { name: 'Edit rule 1' }).click();
    const edit = page.getByRole('form', { name: 'Edit rule 1' });
    expect(await edit.getByRole('radio', { name: 'Operator' }).isChecked()).toBe(true);
    expect(await edit.getByRole('combobox', { name: 'Country' }).inputValue()).toBe('DE');
    expect(await edit.getByRole('combobox', { name: 'Operator' }).inputValue()).toBe('Vodafone');
    await context.close();
  });
});
