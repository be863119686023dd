import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { defaultOptions, type GatewayOptions } from '../../server/config/options.js';
import { createGateway, type Gateway, type GatewayDependencies } from '../../server/index.js';
import { openTab, signIn as signInWith } from '../support/browser.js';

/**
 * The real headless gateway serving the built UI, with built-in simulated modems, and the
 * browser-side steps every UI test needs (sign in, open a screen, call the API directly).
 */
export const uiUser = 'admin';
export const uiPassword = 'password123';
export const uiViewport = { width: 1024, height: 700 };
/** The two windows issue 50's Done-when names: a desktop's and a narrow one. */
export const deskWindowSizes = [
  { width: 1280, height: 800 },
  { width: 640, height: 700 },
] as const;

export interface UiGateway {
  gateway: Gateway;
  baseUrl: string;
  /** The Basic login: `uiUser`/`uiPassword`, or the one the gateway generated (`generatedLogin`). */
  username: string;
  password: string;
  dataDir: string;
  /** Starts a new gateway on the same port and data directory (after `gateway.stop()`). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `generatedLogin`: no `--username/--password`, so the gateway generates and stores a login that
 * can be changed from the window (a login given on the command line cannot). `deps`: what the
 * host injects, e.g. the serial port listing.
 */
export async function startUiGateway(
  options: Partial<GatewayOptions> = {},
  generatedLogin = false,
  deps: Omit<GatewayDependencies, 'logSinks'> = {},
): Promise<UiGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ui-e2e-'));
  const start = async (port: number) => {
    const gateway = createGateway(
      {
        ...defaultOptions(),
        simulatedModems: 1,
        probeSerialPorts: false,
        ...options,
        listen: { host: '127.0.0.1', port },
        dataDir,
        ...(generatedLogin ? {} : { username: uiUser, password: uiPassword }),
        uiDirectory: 'dist/ui',
      },
      { ...deps, logSinks: [] },
    );
    const started = await gateway.start();
    return { gateway, url: started.url, username: started.username, password: started.generatedPassword };
  };
  let running = await start(0);
  const port = Number(new URL(running.url).port);
  const username = running.username;
  const password = running.password ?? uiPassword;
  return {
    username,
    password,
    get gateway() {
      return running.gateway;
    },
    baseUrl: running.url,
    dataDir,
    async restart() {
      running = await start(port);
    },
    async close() {
      await running.gateway.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until the status bar shows a line matching `text`: past two lines the bar folds the rest
 * behind "N more", which this opens whenever it finds it closed (a line may arrive, and the bar
 * fold, at any time).
 */
export async function statusLine(page: Page, text: RegExp): Promise<void> {
  const bar = page.getByRole('region', { name: 'Gateway status' });
  await expect
    .poll(
      async () => {
        const more = bar.getByRole('button', { name: /^\d+ more$/, expanded: false });
        if (await more.isVisible()) await more.click({ timeout: 1_000 }).catch(() => undefined);
        return bar.getByText(text).isVisible();
      },
      { timeout: 25_000 },
    )
    .toBe(true);
}

/** A tab of its own at the UI tests' window size. */
export function newTab(
  from: Browser | BrowserContext,
  options: { timezoneId?: string; viewport?: { width: number; height: number } } = {},
): Promise<Page> {
  return openTab(from, { viewport: uiViewport, ...options });
}

export function signIn(
  page: Page,
  baseUrl: string,
  login: { username: string; password: string } = { username: uiUser, password: uiPassword },
): Promise<void> {
  return signInWith(page, baseUrl, login.username, login.password);
}

/** Goes to a screen through the sidebar (no reload: the page keeps its live stream). */
export async function openScreen(page: Page, label: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('link', { name: label, exact: true })
    .click();
  await page.getByRole('heading', { level: 1, name: label }).waitFor();
}

/** A direct API call with the Basic user, to set the scene or check what the UI did. */
export async function apiCall<T>(baseUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Basic ${Buffer.from(`${uiUser}:${uiPassword}`).toString('base64')}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}
