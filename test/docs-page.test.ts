import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../functions/resources';
import { useTestApi } from './support/api';

/**
 * The reference page in a real headless Chromium (Debian's `chromium` package), with every request
 * to any other host refused: it must render from the local API alone. DOCS_SCREENSHOT=<file> keeps
 * a screenshot (npm run docs:screenshot writes docs/api-reference.png).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env.CI) {
  throw new Error(`The reference page test needs Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH). CI must not skip it.`);
}

const api = useTestApi();
let context: BrowserContext | undefined;
let profile = '';

beforeAll(async () => {
  if (!available) return;
  profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1440, height: 1000 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

describe.skipIf(!available)('the API reference page in headless Chromium', () => {
  it('renders every operation from /openapi, with no console errors and nothing fetched from another host', async () => {
    const page = await context!.newPage();
    const problems: string[] = [];
    const elsewhere: string[] = [];
    const answers: Response[] = [];
    page.on('response', (answer) => answers.push(answer));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => {
      if (request.url().startsWith(api.url)) problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`);
    });
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(api.url) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });

    const response = await page.goto(`${api.url}/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Sales Pipeline API' }).first().waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    if (process.env.DOCS_SCREENSHOT) await page.screenshot({ path: process.env.DOCS_SCREENSHOT });
    // Tags start collapsed; open each so that every operation is on the page.
    for (const tag of new Set(routes.map((route) => route.tag))) {
      const group = page.getByRole('button', { name: `Open Group - ${tag}`, exact: true });
      if (await group.count()) await group.first().click();
    }

    const text = await page.locator('body').innerText();
    for (const route of routes) expect(text, route.operationId).toContain(route.summary);
    for (const tag of new Set(routes.map((route) => route.tag))) expect(text).toContain(tag);
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);

    // The renderer by the hash of its content, gzipped and kept for a year; the whole visit within 1.5 MB on the wire.
    const renderer = answers.find((answer) => /\/docs\/api-reference\.[0-9a-f]{12}\.js$/.test(answer.url()));
    expect(renderer?.status()).toBe(200);
    expect(await renderer!.headerValue('content-encoding')).toBe('gzip');
    expect(await renderer!.headerValue('cache-control')).toBe('public, max-age=31536000, immutable');
    const sizes = await Promise.all(answers.map((answer) => answer.request().sizes()));
    const transferred = sizes.reduce((sum, size) => sum + size.responseHeadersSize + size.responseBodySize, 0);
    expect(transferred).toBeLessThanOrEqual(1_500_000);
    await page.close();
  });

  it('renders the same under a trailing slash, as a browser may ask for it', async () => {
    const page = await context!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${api.url}/docs/`);
    await page.getByRole('heading', { name: 'Sales Pipeline API' }).first().waitFor({ timeout: 60_000 });
    expect(await page.locator('body').innerText()).toContain(routes[0]!.summary);
    expect(errors).toEqual([]);
    await page.close();
  });
});
