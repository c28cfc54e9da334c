import type { AroundTheClock } from './receptionist';
import type { StackSize } from './stack-size';
import type { RouteVisit } from '../support/route-tour';
import type { ColdStartFigures } from './cold-start';
import type { TriggerToSms, TriggerToSmsDuringBulk } from './automations';
import type { Comparison, Throughput } from './timing';
import { CONSOLE_BUDGETS, firstLoadTotals, SIGN_IN_PATH, type ConsoleFirstLoad } from './console-load';

export interface Ratio {
  name: string;
  value: number;
  target: number;
  better: 'lower' | 'higher';
  met: boolean;
  /** Why the measure can miss its target on this machine, from this run's figures; said when it does. */
  why?: string;
}

/** One depth of the leads list: by page number and, past page 1, by cursor, each against page 1 and its bare Query. */
export interface Depth {
  page: number;
  byPage: Comparison;
  /** The page read by cursor, against page 1. */
  byCursor?: number;
  /** The page read by cursor over HTTP, against the bare Query from the same position. */
  cursorOverBare?: number;
  /** DynamoDB Local's own: the bare Query from that position against the bare page-1 Query. */
  emulator?: number;
}

export interface BenchFigures {
  visits: RouteVisit[];
  overhead: Record<'get' | 'list' | 'create', Comparison>;
  http: Record<'get' | 'list' | 'create' | 'caller' | 'context' | 'availability', Comparison>;
  /** The receptionist's routes of a business open 24/7 against the same of one open office hours (test/bench/receptionist.ts). */
  aroundTheClock: AroundTheClock;
  served: Throughput;
  /** `npm start` in its own process: a 50-item page and a create from outside against their bare calls, and 16 clients. */
  npmStart: { page: Comparison; create: Comparison; served: Throughput; bare: Throughput; startSeconds: number; triggerToSms: TriggerToSms; triggerToSmsDuringBulk: TriggerToSmsDuringBulk };
  /** Milliseconds of the server process's CPU per served request. */
  serverCpuMsPerCall: number;
  bareServed: Throughput;
  /** Lead creates per second from 32 concurrent in-process clients: one organization, the same with 8 counter shards, 16 organizations. */
  capacity: { single: number; sharded: number; spread: number };
  scale: Record<'leads' | 'inquiries', Comparison>;
  depth: Depth[];
  coldStarts: ColdStartFigures;
  wire: { path: string; bytes: number; encoding: string }[];
  /** A first visit of the console's sign-in screen in Chromium (test/bench/console-load.ts); none without Chromium. */
  consoleLoad?: ConsoleFirstLoad;
  ratios: Ratio[];
  /** The API stack synthesized at today's routes and at a multiple of them. */
  stacks?: StackSize[];
  loadSeconds: number;
  scaleItems: number;
  minutes: number;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const x = (value: number) => `${value.toFixed(2)}×`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const units = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

function comparisonRow(name: string, c: Comparison, target: string): string {
  return `| ${name} | ${ms(c.measured)} | ${ms(c.baseline)} | ${x(c.ratio)} | ${target} |`;
}

/** docs/performance.md: every ratio with its target first, then each measurement behind it. */
export function renderReport(f: BenchFigures): string {
  const budgetRows = f.visits.map((v) => {
    const calls = v.calls.map((c) => c.command.replace(/Command$/, '')).join(' + ') || '—';
    const read = v.calls.reduce((sum, c) => sum + c.readUnits, 0);
    const write = v.calls.reduce((sum, c) => sum + c.writeUnits, 0);
    return `| \`${v.route.method} ${v.route.path}\` | ${v.kind} | ${v.calls.length} | ${calls} | ${units(read)} | ${units(write)} | ${v.exception ? v.exception.reason : '✓'} |`;
  });
  const importRows = [...f.coldStarts.functions].sort((a, b) => b.ratio - a.ratio);
  const totalWire = f.wire.reduce((sum, w) => sum + w.bytes, 0);
  return `# Performance

Written by \`npm run bench\` (${f.minutes.toFixed(1)} minutes on this run). The service's physical limit is the
DynamoDB round trips each request needs, so every target is a ratio against the bare SDK calls to the same
DynamoDB Local in the same run; absolute times are context only, from a noisy 2-core machine. The chart is
[performance.svg](performance.svg).

## Targets

| Measure | Value | Target | Met |
|---|---|---|---|
${f.ratios.map((r) => `| ${r.name} | ${units2(r.value)} | ${r.better === 'lower' ? '≤' : '≥'} ${r.target} | ${r.met ? 'yes' : '**no**'} |`).join('\n')}

${notMet(f)}
## 1. Round trips per route

One request per route for a fresh organization (test/support/route-tour.ts; test/round-trips.test.ts holds the
same budgets in \`npm test\`). Capacity is DynamoDB Local's own \`ConsumedCapacity\` (TOTAL): read units for reads,
write units for writes, transactions and their index copies at the doubled rate. DynamoDB Local counts a transaction's
table writes by the distinct sizes of its items rather than item by item, so a transaction of many small items shows
fewer units than DynamoDB charges; docs/capacity.md works DynamoDB's own figures out per item.

| Route | Class | Calls | Commands | RCU | WCU | Within its class budget, or why not |
|---|---|---|---|---|---|---|
${budgetRows.join('\n')}

## 2. Handler overhead

Each handler invoked in this process with the event API Gateway sends, warm, against the bare SDK calls it needs
(for the create: the same commands, with as many items of the same attributes), alternating, median of each.

| Request | Handler | Bare SDK | Ratio | Target |
|---|---|---|---|---|
${comparisonRow('GET /v1/leads/{leadId}', f.overhead.get, '≤ 1.3')}
${comparisonRow('GET /v1/leads (page 1)', f.overhead.list, '≤ 1.3')}
${comparisonRow('POST /v1/leads', f.overhead.create, '≤ 1.5')}

Through the local HTTP server (authorizer, usage plan, routing, JSON, a socket each way):

| Request | Over HTTP | Bare SDK | Ratio | Target |
|---|---|---|---|---|
${comparisonRow('GET /v1/leads/{leadId}', f.http.get, '≤ 2')}
${comparisonRow('GET /v1/leads (page 1)', f.http.list, '≤ 2')}
${comparisonRow('POST /v1/leads', f.http.create, '≤ 2')}
${comparisonRow('GET /v1/callers/{phone} (a known caller with inquiries)', f.http.caller, '≤ 2')}
${comparisonRow('GET /v1/receptionist/context', f.http.context, '≤ 2')}
${comparisonRow('GET /v1/availability (a week, two members)', f.http.availability, '≤ 2')}

The receptionist's routes of a business open around the clock (every day 00:00–24:00) against the same routes of a
business alike but open office hours (weekdays 07:00–17:00), over HTTP, alternating (test/bench/receptionist.ts):
whether it is open now is worked out on every call, and a 24/7 schedule was once read a year ahead for a closing
that never comes.

| Request | Open 24/7 | Office hours | Ratio | Target |
|---|---|---|---|---|
${comparisonRow('GET /v1/callers/{phone} (a known caller with inquiries)', f.aroundTheClock.caller, '≤ 2')}
${comparisonRow('GET /v1/receptionist/context', f.aroundTheClock.context, '≤ 2')}

## 3. Throughput

\`GET /v1/leads\` from 16 concurrent clients in this process through the local server in a process of its own
(test/bench/server-process.ts), as a client outside sees it: ${f.served.perSecond.toFixed(0)} requests/s; the bare calls it needs
(Query ∥ GetItem) from 16 concurrent loops in this process: ${f.bareServed.perSecond.toFixed(0)}/s, in alternating two-second slices; ratio
${x(f.served.perSecond / f.bareServed.perSecond)} (target ≥ 0.6).

CPU per request: ${ms(f.serverCpuMsPerCall)} in the server and ${ms(f.served.cpuMsPerCall)} in the client when served, ${ms(f.bareServed.cpuMsPerCall)} in
the client per bare call pair. The server's part is the HTTP server, the gateway's routing and authorizer cache,
middy, Powertools, validation, item mapping and JSON: work that API Gateway and Lambda do on machines of their own
when deployed, and that here shares two cores with DynamoDB Local and the client.

\`npm start\` itself, in a process of its own with its own DynamoDB Local, the stream consumer and the workers running
(the server a developer runs, caching each key's authorization for 300 s as API Gateway does deployed), measured from
this process against the same calls bare to its DynamoDB Local, for an organization on the internal usage plan made in
it with the admin CLI (the demo organization's standard plan admits 50 requests a second; every answer measured must
be a success):

| Request | From outside | Bare SDK | Ratio | Target |
|---|---|---|---|---|
${comparisonRow('GET /v1/leads?limit=50 (50 items)', f.npmStart.page, '≤ 2')}
${comparisonRow('POST /v1/leads', f.npmStart.create, '≤ 2')}

At 16 clients: ${f.npmStart.served.perSecond.toFixed(0)} pages/s served, ${f.npmStart.bare.perSecond.toFixed(0)}/s bare; ratio ${x(f.npmStart.served.perSecond / f.npmStart.bare.perSecond)} (target ≥ 0.6).

Trigger to SMS: a missed call posted as an inquiry, with the missed-call text-back recipe on, until the caller's SMS
list shows the text (the stream consumer starting the run, the step queue, the runner recording and sending), over
${f.npmStart.triggerToSms.calls} calls one after the other: p50 ${ms(f.npmStart.triggerToSms.p50)}, p95 ${ms(f.npmStart.triggerToSms.p95)} (target p95 ≤ 5 s). \`npm start\`
reads the stream as soon as a request has written; deployed, Lambda's event source mapping polls it.

The same, while another organization enrols ${f.npmStart.triggerToSmsDuringBulk.leads} new leads in a three-step automation (a text, a day's wait, a
text), 16 enrolments at a time, the calls starting once 100 are enrolled (the leads' creation is set up first, and its
stream records handled before the enrolment starts). Each enrolled run's text opens an inquiry and moves its lead, so
the enrolment's stream records outnumber the quiet organization's hundreds to one: the stream consumer is handed only
the records it reads (Lambda's event filtering deployed, the local reader alike: the counters and claims of the
enrolling organization's busiest partition no longer fill a lane), takes ten batches of the stream at once by partition
key (Lambda's ParallelizationFactor deployed, the local reader's lanes alike), and starts a batch's runs while it writes
the batch's events together; the step queue serves each organization as its own group (an SQS fair queue deployed, the
in-process queue alike), so the text-back waits for a lane's current batch and a free slot, not for the backlog. Over ${f.npmStart.triggerToSmsDuringBulk.calls} calls: p50 ${ms(f.npmStart.triggerToSmsDuringBulk.p50)}, p95
${ms(f.npmStart.triggerToSmsDuringBulk.p95)} (target p95 ≤ 5 s), ${x(f.npmStart.triggerToSmsDuringBulk.ratio)} the p95 without the enrolment (target ≤ 10). What remains is
DynamoDB Local's: it serializes every write of the enrolment, its steps and their events on this machine's two cores,
so a lane's current batch waits for it at the enrolment's peak (npm run bench:automations runs these two rows alone).

Lead creates per second from 32 concurrent clients (warm handlers in process): ${f.capacity.single.toFixed(0)}/s in one
organization, ${f.capacity.sharded.toFixed(0)}/s in one organization with 8 counter shards, ${f.capacity.spread.toFixed(0)}/s spread over 16.
DynamoDB Local serializes writes and has no partitions, so these show the emulator's ceiling, not DynamoDB's:
docs/capacity.md works out the per-organization ceiling in DynamoDB from its item limits.

## 4. Scale and depth

${f.scaleItems} leads, each with a CALL inquiry, written with the entities' item mappers and the list counters
(test/bench/bulk-load.ts) in ${f.loadSeconds.toFixed(0)} s, against an organization with 100.

| Request | At ${f.scaleItems} | At 100 | Ratio | Target |
|---|---|---|---|---|
${comparisonRow('GET /v1/leads?page=1', f.scale.leads, '≤ 1.2')}
${comparisonRow('GET /v1/inquiries?source=CALL', f.scale.inquiries, '≤ 1.2')}

Deep pages of \`GET /v1/leads?limit=100\` in the large organization, each against page 1 in the same run. A page
number must walk the keys before it (Queries of 1 000 positions that return only a count); a \`cursor\` starts where the last
page ended. The last column is DynamoDB Local's own cost of starting a Query deep in a partition (the bare Query
from the cursor's position against the bare page-1 Query): DynamoDB seeks a B-tree and does not grow there.

| Page | By page number | ÷ page 1 | By cursor ÷ page 1 | By cursor ÷ bare Query from its position | Emulator: bare deep Query ÷ bare page 1 |
|---|---|---|---|---|---|
${f.depth.map((d) => `| ${d.page} | ${ms(d.byPage.measured)} | ${x(d.byPage.ratio)} | ${opt(d.byCursor)} | ${opt(d.cursorOverBare)} | ${opt(d.emulator)} |`).join('\n')}

## 5. Cold starts

Each bundle the stack deploys (a function module's, which each of its functions deploys; its import reads the entry and
the chunks that loads at once, not those it loads with \`import()\` at first use), imported in a fresh Node process that has loaded what Lambda's
runtime loads first (\`node:http\`, for its Runtime API client), median of the rounds, against a function that only
creates the DynamoDB document client, bundled the same way and imported beside each (a ratio is the median of those
pairs' ratios) (${kb(f.coldStarts.baseline.bytes)}, ${ms(f.coldStarts.baseline.importMs)}).

Every function stands on the handler factory: middy, Powertools Logger and Metrics, valibot and the error envelope
around its handler. The factory and the document client around a read route's handler that does nothing
(test/bench/handler-floor.ts, a GET as its function deploys: no write path) are
${kb(f.coldStarts.floor.bytes)} and import in ${ms(f.coldStarts.floor.importMs)}, ${x(f.coldStarts.floor.ratio)} the bare client: the floor under every function.
A write route's (test/bench/handler-floor-write.ts, imported with its handler named as Lambda names it, so its write
path, the Idempotency-Key's records and the writer's scope, loads at import) imports in ${ms(f.coldStarts.writeFloor.importMs)}, ${x(f.coldStarts.writeFloor.ratio)}.
Bundled again with Powertools taken out (test/bench/without-powertools.ts), it is ${kb(f.coldStarts.floorWithoutPowertools.bytes)} and
${ms(f.coldStarts.floorWithoutPowertools.importMs)}, ${x(f.coldStarts.floorWithoutPowertools.ratio)}. The MCP protocol SDK's server and Streamable HTTP transport alone
(test/bench/mcp-sdk.ts), without a DynamoDB client, are ${kb(f.coldStarts.mcpSdk.bytes)} and ${ms(f.coldStarts.mcpSdk.importMs)}, ${x(f.coldStarts.mcpSdk.ratio)}.
The two reference-page functions (meta/docs, meta/docs-script) also read the 4.3 MB renderer at import, and the page
names it by the hash of its content.

| Function | Bundle | Import | ÷ bare client |
|---|---|---|---|
${importRows.map((fn) => `| ${fn.handler} | ${kb(fn.bytes)} | ${ms(fn.importMs)} | ${x(fn.ratio)} |`).join('\n')}

Source maps: \`--enable-source-maps\` against none, the same bundles.

| Function | Without | With | Cost |
|---|---|---|---|
${f.coldStarts.sourceMaps.map((s) => `| ${s.handler} | ${ms(s.withoutMs)} | ${ms(s.withMs)} | ${ms(s.withMs - s.withoutMs)} |`).join('\n')}

The SDK from the runtime instead of the bundle (\`${f.coldStarts.runtimeSdk.handler}\` with \`@aws-sdk/*\` and
\`@smithy/*\` left out, resolved from node_modules as Lambda's runtime provides them):
${kb(f.coldStarts.runtimeSdk.bytes)} and ${ms(f.coldStarts.runtimeSdk.importMs)}, against ${ms(f.coldStarts.runtimeSdk.bundledMs)} bundled.

## 6. Reference page

| Request | Encoding | Bytes over the wire |
|---|---|---|
${f.wire.map((w) => `| \`${w.path}\` | ${w.encoding} | ${kb(w.bytes)} |`).join('\n')}
| First load | | ${(totalWire / 1024 / 1024).toFixed(2)} MB |
${stacksSection(f.stacks)}${consoleSection(f.consoleLoad)}`;
}

/** Section 8: the owners' console's first load, bytes and time to interactive. */
export function consoleSection(load: ConsoleFirstLoad | undefined): string {
  if (!load) return '';
  const kb1 = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const { bytes, gzipBytes } = firstLoadTotals(load);
  return `
## 8. The owners' console

A first visit of \`${SIGN_IN_PATH}\` in Debian's Chromium, headless, each visit in a fresh context (no cache, no
cookie), against the local server of this run, whose edge serves the console's files (infra/local/edge.ts;
test/bench/console-load.ts). The local edge does not compress them, so each file is counted as served and, beside it,
gzipped here (zlib's default level), as a CDN serves text; the budget is on the gzipped total. The first visit fetches
the page, its style and its one module (Preact, the screens and the WebAuthn calls); Chart.js is a chunk of its own
that the Reports screen alone fetches, and the session check (\`GET /v1/me\`, 401 signed out) is not counted.

| File | Encoding | As served | Gzip |
|---|---|---|---|
${load.files.map((file) => `| \`${file.path}\` | ${file.encoding} | ${kb1(file.bytes)} | ${kb1(file.gzipBytes)} |`).join('\n')}
| First load | | ${kb1(bytes)} | ${kb1(gzipBytes)} (target ≤ ${CONSOLE_BUDGETS.gzipKb} KB) |

Time to interactive is read in the page (PerformanceNavigationTiming and a \`longtask\` PerformanceObserver set before
the page's own script): from navigation start until the sign-in form, its phone field and "Text me a code", is on the
page, DOMContentLoaded has run and the last long task is over, once 500 ms have passed with none. The button stays
disabled until a phone is typed, so each visit then types one and checks that it enables. Against it, a bare static
page from the same server: the same document with its script and style blocked in the browser
(\`Network.setBlockedURLs\`, so the document's own request is not intercepted), until DOMContentLoaded. Alternating,
${load.rounds} visits of each after two of each (the edge builds the console at its first request): medians of
${ms(load.interactiveMs)} against ${ms(load.bareMs)}, and the median of each pair's ratio ${x(load.ratio)} (target ≤ ${CONSOLE_BUDGETS.interactiveOverBare}), as
the cold starts pair their imports; DOMContentLoaded at ${ms(load.domContentLoadedMs)}, ${load.longTasks} long task${load.longTasks === 1 ? '' : 's'} (${ms(load.longTaskMs)}).

The budgets are set where this build is well inside them and a change of kind is not. ${CONSOLE_BUDGETS.gzipKb} KB gzipped is about twice
the first load's ${kb1(gzipBytes)}: room for the screens to grow, none for Chart.js (about 57 KB gzipped by itself) to join
the first load, or for a second framework. ${CONSOLE_BUDGETS.interactiveOverBare}× the bare page is about twice what the sign-in measured in
runs on this machine (2 to 4×): a bare visit takes 20 to 200 ms as the load of two shared cores comes and goes, the
console's with it, so the pairs' ratio is a ceiling rather than a fine measure. A change that doubles the time to
interactive (a long task at start, a round trip or a module fetched before the first render) reaches it; the bytes' budget holds the rest.
`;
}

/** Section 7: synth time and stack sizes, measured with no target (test/stack-limits.test.ts holds the limits). */
function stacksSection(stacks: StackSize[] | undefined): string {
  if (!stacks?.length) return '';
  const [first] = stacks;
  const rows = stacks.map((s) => `| ${s.times}× (${s.routes} routes) | ${s.synthSeconds.toFixed(1)} s | ${(s.synthSeconds / first!.synthSeconds).toFixed(2)}× | ${s.parentResources} | ${s.largestNestedResources} | ${s.nestedStacks} |`);
  return `
## 7. Stacks

The API stack synthesized offline (bundling left out, as the tests do), at today's routes and at copies of them under
other tags and paths. CloudFormation takes at most 500 resources a stack.

| Routes | Synth | ÷ today's | Parent's resources | Largest nested stack's | Nested stacks |
|---|---|---|---|---|---|
${rows.join('\n')}
`;
}

const opt = (value: number | undefined) => (value === undefined ? '—' : x(value));

function units2(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

function notMet(f: BenchFigures): string {
  const missed = f.ratios.filter((r) => !r.met);
  if (!missed.length) return 'Every target is met on this run.\n';
  return `Not met on this run:\n\n${missed.map((r) => `- ${r.name}: ${units2(r.value)}. ${r.why ?? ''}`.trimEnd()).join('\n')}\n`;
}

/** A bar per ratio, scaled to its target (the line at 1): left of it is within the target. */
export function renderChart(ratios: Ratio[]): string {
  const rowHeight = 26;
  const labelWidth = 430;
  const barWidth = 360;
  const height = ratios.length * rowHeight + 50;
  const scale = (r: Ratio) => (r.better === 'lower' ? r.value / r.target : r.value === 0 ? 2 : r.target / r.value);
  const shown = (r: Ratio) => (r.target === 0 ? (r.value === 0 ? 0 : 2) : Math.min(2, scale(r)));
  const bars = ratios
    .map((r, i) => {
      const y = 30 + i * rowHeight;
      const width = (shown(r) / 2) * barWidth;
      const label = r.name.replace(/&/g, '&amp;').replace(/</g, '&lt;');
      return `<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${label}</text>
<rect x="${labelWidth}" y="${y + 3}" width="${width.toFixed(1)}" height="16" fill="${r.met ? '#2f855a' : '#c53030'}"/>
<text x="${labelWidth + width + 6}" y="${y + 15}">${units2(r.value)} (${r.better === 'lower' ? '≤' : '≥'} ${r.target})</text>`;
    })
    .join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${labelWidth + barWidth + 140}" height="${height}" font-family="sans-serif" font-size="12">
<text x="10" y="18" font-weight="bold">npm run bench: each measure against its target (the line); shorter is better</text>
${bars}
<line x1="${labelWidth + barWidth / 2}" y1="26" x2="${labelWidth + barWidth / 2}" y2="${height - 10}" stroke="#333" stroke-dasharray="4 3"/>
</svg>
`;
}
