import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, chromiumAvailable } from '../support/chromium';
import { median } from './timing';
import type { Ratio } from './report';

/** What a first visit of the console's sign-in screen costs in a browser (test/bench/console-load.ts). */
export interface ConsoleFirstLoad {
  /** Each HTML, script and style file the first visit fetched: as served (the local edge does not compress) and gzipped. */
  files: { path: string; type: string; encoding: string; bytes: number; gzipBytes: number }[];
  /** Median milliseconds from navigation start until the sign-in form was on the page and the main thread quiet. */
  interactiveMs: number;
  /** The same page's HTML alone (its script and style blocked): median milliseconds until DOMContentLoaded. */
  bareMs: number;
  /** The median of each console visit's time over the bare visit's beside it. */
  ratio: number;
  /** Long tasks of a console load (median count and median total milliseconds), and its DOMContentLoaded. */
  longTasks: number;
  longTaskMs: number;
  domContentLoadedMs: number;
  rounds: number;
}

/** The console's first screen for someone signed out. */
export const SIGN_IN_PATH = '/console/sign-in';

/** Milliseconds with no long task after which a page counts as settled. */
const QUIET_MS = 500;

/**
 * Runs in the page before any of its own scripts: records long tasks, and when the sign-in form (its phone field and
 * its "Text me a code" button) is first in the document.
 */
const WATCH_PAGE = `(() => {
  const bench = { longTasks: [], formAt: undefined };
  window.__bench = bench;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) bench.longTasks.push({ start: entry.startTime, end: entry.startTime + entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  const formShown = () =>
    document.querySelector('#sign-in-phone') !== null && [...document.querySelectorAll('button')].some((button) => button.textContent.trim() === 'Text me a code');
  const watcher = new MutationObserver(() => {
    if (bench.formAt === undefined && formShown()) {
      bench.formAt = performance.now();
      watcher.disconnect();
    }
  });
  watcher.observe(document, { childList: true, subtree: true });
})();`;

interface Watched {
  longTasks: { start: number; end: number }[];
  formAt?: number;
  domContentLoaded: number;
  sinceStart: number;
}

const watched = (page: Page) =>
  page.evaluate(() => {
    // Run in the page: the server's program has no DOM types, so the page's globals are named by what is read of them.
    const bench = (globalThis as unknown as { __bench: { longTasks: { start: number; end: number }[]; formAt?: number } }).__bench;
    const { performance } = globalThis as unknown as { performance: { now(): number; getEntriesByType(type: string): { domContentLoadedEventEnd: number }[] } };
    const navigation = performance.getEntriesByType('navigation')[0];
    return { longTasks: bench.longTasks, formAt: bench.formAt, domContentLoaded: navigation?.domContentLoadedEventEnd ?? 0, sinceStart: performance.now() };
  }) as Promise<Watched>;

/** Waits until the page's DOMContentLoaded has run, `ready` holds, and no long task has run for QUIET_MS. */
async function settled(page: Page, ready: (seen: Watched) => boolean, timeoutMs = 30_000): Promise<Watched> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    const seen = await watched(page);
    const lastTaskEnd = Math.max(0, ...seen.longTasks.map((task) => task.end));
    if (seen.domContentLoaded > 0 && ready(seen) && seen.sinceStart - Math.max(lastTaskEnd, seen.domContentLoaded, seen.formAt ?? 0) >= QUIET_MS) return seen;
    if (performance.now() > until) throw new Error(`The page did not settle within ${timeoutMs} ms: ${JSON.stringify(seen)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * One first visit in a fresh browser context (no cache, no cookie), its time from navigation start (the navigation
 * entry's 0) until the form is on the page, DOMContentLoaded has run and the last long task is over; with `bare`, the
 * same document with its script and style blocked, until DOMContentLoaded.
 */
async function visit(browser: Browser, url: string, { bare = false, onFile }: { bare?: boolean; onFile?: (file: ConsoleFirstLoad['files'][number]) => void } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(WATCH_PAGE);
    if (bare) {
      // Blocked in the browser's network stack, not intercepted: the document's own request is not slowed.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setBlockedURLs', { urls: ['*/console/assets/*'] });
    }
    const recorded: Promise<void>[] = [];
    if (onFile) {
      page.on('response', (response) => {
        const type = response.request().resourceType();
        if (!['document', 'script', 'stylesheet'].includes(type)) return;
        recorded.push(
          response.body().then((body) =>
            onFile({ path: new URL(response.url()).pathname, type, encoding: response.headers()['content-encoding'] ?? 'identity', bytes: body.length, gzipBytes: gzipSync(body).length }),
          ),
        );
      });
    }
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    const seen = await settled(page, (each) => bare || each.formAt !== undefined);
    await Promise.all(recorded);
    if (!bare) {
      // Interactive: typing a phone enables the button (it is disabled while the field is empty).
      await page.getByLabel('Phone').fill('+61491570100');
      if (!(await page.getByRole('button', { name: 'Text me a code' }).isEnabled())) throw new Error('The sign-in form did not take a phone');
    }
    const lastTaskEnd = Math.max(0, ...seen.longTasks.map((task) => task.end));
    return {
      ms: Math.max(seen.domContentLoaded, seen.formAt ?? 0, lastTaskEnd),
      domContentLoadedMs: seen.domContentLoaded,
      longTasks: seen.longTasks.length,
      longTaskMs: seen.longTasks.reduce((sum, task) => sum + task.end - task.start, 0),
    };
  } finally {
    await context.close();
  }
}

/**
 * The console's first load against `baseUrl` (a local server, its edge serving /console): the bytes of a first visit
 * of the sign-in screen, and its time to interactive against the same page's HTML alone, alternating fresh contexts
 * of one headless Chromium, `rounds` pairs after `warmUp` (the edge builds the console at its first request): the medians
 * of each, and the median of the pairs' ratios.
 */
export async function measureConsoleFirstLoad(baseUrl: string, { rounds = 21, warmUp = 2, progress = (_line: string): unknown => undefined } = {}): Promise<ConsoleFirstLoad> {
  if (!chromiumAvailable) throw new Error(`The console's first load is measured in Chromium, not found at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const url = new URL(SIGN_IN_PATH, baseUrl).href;
    for (let i = 0; i < warmUp; i++) {
      await visit(browser, url);
      await visit(browser, url, { bare: true });
    }
    const files: ConsoleFirstLoad['files'] = [];
    const loads: Awaited<ReturnType<typeof visit>>[] = [];
    const bare: number[] = [];
    for (let i = 0; i < rounds; i++) {
      loads.push(await visit(browser, url, i === 0 ? { onFile: (file) => files.push(file) } : {}));
      bare.push((await visit(browser, url, { bare: true })).ms);
      progress(`console first load: round ${i + 1} of ${rounds}, ${loads.at(-1)!.ms.toFixed(0)} ms against ${bare.at(-1)!.toFixed(0)} ms bare`);
    }
    return {
      files: files.sort((a, b) => ['document', 'stylesheet', 'script'].indexOf(a.type) - ['document', 'stylesheet', 'script'].indexOf(b.type)),
      interactiveMs: median(loads.map((load) => load.ms)),
      bareMs: median(bare),
      // Each visit against the bare one beside it: a slow spell of the shared machine falls on both of a pair.
      ratio: median(loads.map((load, i) => load.ms / bare[i]!)),
      longTasks: median(loads.map((load) => load.longTasks)),
      longTaskMs: median(loads.map((load) => load.longTaskMs)),
      domContentLoadedMs: median(loads.map((load) => load.domContentLoadedMs)),
      rounds,
    };
  } finally {
    await browser.close();
  }
}

/** Bytes of a first visit: as served, and gzipped. */
export const firstLoadTotals = ({ files }: Pick<ConsoleFirstLoad, 'files'>) => ({
  bytes: files.reduce((sum, file) => sum + file.bytes, 0),
  gzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0),
});

/** Budgets of the console's first load (docs/performance.md, section 8, says why these). */
export const CONSOLE_BUDGETS = { interactiveOverBare: 6, gzipKb: 60 } as const;

/** The console's rows of the bench's targets. */
export function consoleRatios(figures: ConsoleFirstLoad): Ratio[] {
  const { bytes, gzipBytes } = firstLoadTotals(figures);
  const { ratio } = figures;
  return [
    {
      name: 'Console sign-in: time to interactive ÷ its HTML alone',
      value: ratio,
      target: CONSOLE_BUDGETS.interactiveOverBare,
      better: 'lower',
      met: ratio <= CONSOLE_BUDGETS.interactiveOverBare,
      why: `Interactive after ${figures.interactiveMs.toFixed(0)} ms (DOMContentLoaded at ${figures.domContentLoadedMs.toFixed(0)} ms, ${figures.longTasks} long tasks of ${figures.longTaskMs.toFixed(0)} ms in all) against ${figures.bareMs.toFixed(0)} ms for the same document with its script and style blocked: the difference is fetching, parsing and running ${(bytes / 1024).toFixed(0)} KB of script and style on a machine whose two cores also run the server and DynamoDB Local.`,
    },
    {
      name: `Console first load, gzip (KB) ÷ ${CONSOLE_BUDGETS.gzipKb} KB`,
      value: gzipBytes / 1024 / CONSOLE_BUDGETS.gzipKb,
      target: 1,
      better: 'lower',
      met: gzipBytes / 1024 <= CONSOLE_BUDGETS.gzipKb,
      why: `${(gzipBytes / 1024).toFixed(1)} KB gzipped (${(bytes / 1024).toFixed(1)} KB as served): ${figures.files.map((file) => `${file.path} ${(file.gzipBytes / 1024).toFixed(1)} KB`).join(', ')}.`,
    },
  ];
}
