/**
 * `npm run bench`: DynamoDB round trips per route, handler and HTTP overhead against the bare SDK calls they need,
 * throughput, cost at scale and at depth, cold starts, the reference page's weight, and the console's first load
 * (./console-load.ts; `npm run bench:console` runs it alone). Every figure that has a
 * target is a ratio of two measurements of this run. Writes docs/performance.md and docs/performance.svg.
 */
import { request as httpRequest } from 'node:http';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { jsonClient, succeeding, type JsonClient } from '../stress/http';
import { startStressStack } from '../stress/stack';
import { measureTriggerToSms, measureTriggerToSmsDuringBulk } from './automations';
import { npmStartInItsOwnProcess } from './npm-start';
import { measureAroundTheClock } from './receptionist';
import { consoleRatios, measureConsoleFirstLoad } from './console-load';
import { chromiumAvailable } from '../support/chromium';
import { renderChart, renderReport, type BenchFigures, type Depth, type Ratio } from './report';
import { combined, compare, median, throughput, type Comparison, type Throughput } from './timing';
import type { RouteVisit } from '../support/route-tour';
import type { TenantSessionFigures } from './tenant-sessions';
import { parseHandler } from '#shared/routes/route';

const progress = (line: string) => process.stderr.write(`bench: ${line}\n`);
for (const method of ['log', 'info', 'warn', 'error'] as const) console[method] = () => undefined;

// What deploys is measured: the strict mode's policy evaluation before each call is npm start's and the tests' alone.
process.env.STRICT_ACCESS = 'off';

const SCALE_ITEMS = Number(process.env.BENCH_SCALE_ITEMS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
/** Two-second slices of each throughput run, alternating served and bare. */
const THROUGHPUT_SLICES = 6;
const started = performance.now();

// The modules below read the environment the stack sets, so they load after it; the hooks are called per request.
let calls: typeof import('../support/dynamo-calls') | undefined;
// The handlers log and emit metrics as in Lambda (compact JSON lines, EMF) to stdout: the run pays for writing them
// and discards what is written. The report goes to docs/, progress to stderr.
process.stdout.write = () => true;
const stack = await startStressStack({
  events: false,
  powertoolsDev: false,
  // As the deployed stage: API Gateway keeps the authorizer's answer per key for 300 s (authorizerCacheTtl).
  authorizerCacheTtlMs: 300_000,
  aroundInvoke: (route, invoke) => calls!.attributingCalls.aroundInvoke(route, invoke),
  aroundAuthorize: (authorize) => calls!.attributingCalls.aroundAuthorize(authorize),
});
calls = await import('../support/dynamo-calls');
// These reach every route's schemas, some of which read the service's settings (webhook URLs allowed locally) at import.
const { measureColdStarts } = await import('./cold-start');
const { bundleBudget, MAX_BUNDLE_BYTES } = await import('../support/bundles');
const { tourRoutes, withinBudget } = await import('../support/route-tour');
const { localClient } = await import('../../infra/local/dynamodb-local');
const { config } = await import('#shared/config');
const { dynamo } = await import('#shared/dynamo');
const { keys } = await import('#shared/store/keys');
const { leadKeys, LEAD_CHANGES } = await import('../../functions/leads/entity');
const { changeLogKey } = await import('#shared/store/keys');
const { bulkLoadCallInquiries } = await import('./bulk-load');
const { measureStackSizes } = await import('./stack-size');
const bare = DynamoDBDocumentClient.from(localClient(stack.endpoint));
const TableName = config.tableName;

try {
  // 1. Round trips.
  progress('round trips: one request per route');
  const tourOrg = await stack.newOrganization('Bench tour');
  const visits = await tourRoutes({ ...jsonClient(stack.url, tourOrg.apiKey), queuesIdle: stack.queuesIdle });
  const statusChangeFloor = await twoIndexMoveFloor(tourOrg.organizationId);

  // 2. Handler overhead, in process and through the local server.
  progress('handler overhead: warm handlers in process against the bare SDK calls they need');
  const org = await stack.newOrganization('Bench overhead');
  const api = succeeding(jsonClient(stack.url, org.apiKey));
  for (let i = 0; i < 30; i++) await api.post('/v1/leads', { name: `Lead ${i} Bench`, email: `lead${i}@bench.example.com` });
  const leadId = (await api.get('/v1/leads?limit=1')).body.leads[0].id as string;
  const invokeAs = await handlerInvoker();
  const invoke: Invoke = (handler, request) => invokeAs(handler, request, { organizationId: org.organizationId });
  const bareGet = () => bare.send(new GetCommand({ TableName, Key: leadKeys.lead(org.organizationId, leadId), ConsistentRead: true }));
  const bareListPage = () =>
    Promise.all([
      bare.send(new QueryCommand({ TableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': leadKeys.leads(org.organizationId).pk, ':prefix': 'LEAD#' }, ScanIndexForward: false, Limit: 11 })),
      bare.send(new GetCommand({ TableName, Key: keys.counter(org.organizationId, 'LEADS'), ConsistentRead: true })),
    ]);
  let created = 0;
  const createBody = () => ({ name: `Created ${++created} Bench`, email: `created${created}@bench.example.com` });
  const bareCreate = await bareCallsOfCreate(() => invoke('leads/handlers#createLeadHandler', { httpMethod: 'POST', path: '/v1/leads', body: createBody() }));
  const overhead = {
    get: await compare(() => invoke('leads/handlers#getLeadHandler', { httpMethod: 'GET', path: `/v1/leads/${leadId}`, pathParameters: { leadId } }), bareGet, { rounds: ROUNDS }),
    list: await compare(() => invoke('leads/handlers#listLeadsHandler', { httpMethod: 'GET', path: '/v1/leads' }), bareListPage, { rounds: ROUNDS }),
    create: await compare(() => invoke('leads/handlers#createLeadHandler', { httpMethod: 'POST', path: '/v1/leads', body: createBody() }), bareCreate, { rounds: ROUNDS }),
  };
  progress('HTTP overhead: the same through the local server');
  // What a voice agent asks during a call: a caller with inquiries, the receptionist's context, a week of slots.
  const hours = [{ open: '07:00', close: '17:00' }];
  await api.patch('/v1/organization', { timezone: 'Australia/Sydney', businessHours: { monday: hours, tuesday: hours, wednesday: hours, thursday: hours, friday: hours } });
  for (const name of ['Kate Ng', 'Dan Russo']) await api.post('/v1/organization/members', { email: `${name.split(' ')[0]!.toLowerCase()}@bench.example.com`, firstName: name.split(' ')[0], lastName: name.split(' ')[1] });
  const serviceId = (await api.post('/v1/services', { name: 'Blocked drain clearing', description: 'Clearing blocked drains', followUpQuestions: [], duration: 60, durationUnit: 'MINUTES', tradeCategoryId: 1, pricingType: 'NONE' })).body.service.id as number;
  await api.post('/v1/leads', { name: 'Olivia Caller', phone: '+61412345001' });
  for (let i = 0; i < 3; i++) await api.post('/v1/inquiries', { source: 'WEBFORM', lead: { phone: '+61412345001' }, summary: `Inquiry ${i}`, data: { formName: 'Contact', submittedAt: '2026-11-20T09:00:00Z', pageUrl: 'https://bench.example.com/contact', fields: [{ name: 'message', label: 'Message', value: `Inquiry ${i}` }] } });
  const voice = {
    caller: () => api.get('/v1/callers/%2B61412345001'),
    context: () => api.get('/v1/receptionist/context'),
    availability: () => api.get(`/v1/availability?serviceId=${serviceId}`),
  };
  const http = {
    get: await compare(() => api.get(`/v1/leads/${leadId}`), bareGet, { rounds: ROUNDS }),
    list: await compare(() => api.get('/v1/leads'), bareListPage, { rounds: ROUNDS }),
    create: await compare(() => api.post('/v1/leads', createBody()), bareCreate, { rounds: ROUNDS }),
    caller: await compare(voice.caller, await bareReadsOf(voice.caller), { rounds: ROUNDS }),
    context: await compare(voice.context, await bareReadsOf(voice.context), { rounds: ROUNDS }),
    availability: await compare(voice.availability, await bareReadsOf(voice.availability), { rounds: ROUNDS }),
  };
  progress('HTTP overhead: the receptionist\'s routes of a business open 24/7 against one open office hours');
  const receptionistClient = async (name: string) => succeeding(jsonClient(stack.url, (await stack.newOrganization(name)).apiKey));
  const aroundTheClock = await measureAroundTheClock(await receptionistClient('Bench around the clock'), await receptionistClient('Bench office hours'), { rounds: ROUNDS });

  // 3. Throughput.
  progress('throughput: GET /v1/leads at 16 concurrent clients through the local server in its own process, then the bare calls at 16');
  const server = await serverInItsOwnProcess();
  const serverApi = succeeding(jsonClient(server.url, org.apiKey));
  await throughput(() => serverApi.get('/v1/leads'), { clients: 16, seconds: 2 });
  // Alternating slices, as compare() alternates calls: a slow spell of the machine (DynamoDB Local's JIT or GC) falls on both.
  const servedSlices: Throughput[] = [];
  const bareSlices: Throughput[] = [];
  let serverCpuMs = 0;
  for (let slice = 0; slice < THROUGHPUT_SLICES; slice++) {
    const before = server.cpuMs();
    servedSlices.push(await throughput(() => serverApi.get('/v1/leads'), { clients: 16, seconds: 2 }));
    serverCpuMs += server.cpuMs() - before;
    bareSlices.push(await throughput(bareListPage, { clients: 16, seconds: 2 }));
  }
  await server.stop();
  const served = combined(servedSlices);
  const bareServed = combined(bareSlices);
  const serverCpuMsPerCall = serverCpuMs / (served.perSecond * 2 * THROUGHPUT_SLICES);

  // 3b. `npm start` itself, as a developer runs it: its own DynamoDB Local, the stream consumer and the workers running.
  progress('npm start: 50-item pages, creates and 16 clients against npm start in its own process, against the same calls bare to its DynamoDB Local');
  const npmStart = await npmStartInItsOwnProcess();
  let npmStartFigures: BenchFigures['npmStart'];
  try {
    const startApi = succeeding(jsonClient(npmStart.url, npmStart.apiKey));
    const startBare = DynamoDBDocumentClient.from(localClient(npmStart.endpoint));
    for (let i = 0; i < 50; i++) await startApi.post('/v1/leads', { name: `Served ${i} Bench`, email: `served${i}@bench.example.com` });
    const startLeads = leadKeys.leads(npmStart.organizationId);
    const bareFiftyPage = () =>
      Promise.all([
        startBare.send(new QueryCommand({ TableName: npmStart.tableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': startLeads.pk, ':prefix': startLeads.skPrefix }, ScanIndexForward: false, Limit: 51 })),
        startBare.send(new GetCommand({ TableName: npmStart.tableName, Key: keys.counter(npmStart.organizationId, 'LEADS'), ConsistentRead: true })),
      ]);
    const startCreate = await bareCallsOfCreate(() => invoke('leads/handlers#createLeadHandler', { httpMethod: 'POST', path: '/v1/leads', body: createBody() }), { client: startBare, tableName: npmStart.tableName });
    const page = await compare(() => startApi.get('/v1/leads?limit=50'), bareFiftyPage, { rounds: ROUNDS });
    const create = await compare(() => startApi.post('/v1/leads', createBody()), startCreate, { rounds: ROUNDS });
    await throughput(() => startApi.get('/v1/leads?limit=50'), { clients: 16, seconds: 2 });
    const servedSlices: Throughput[] = [];
    const bareSlices: Throughput[] = [];
    for (let slice = 0; slice < THROUGHPUT_SLICES / 2; slice++) {
      servedSlices.push(await throughput(() => startApi.get('/v1/leads?limit=50'), { clients: 16, seconds: 2 }));
      bareSlices.push(await throughput(bareFiftyPage, { clients: 16, seconds: 2 }));
    }
    progress('npm start: missed calls texted back by the missed-call recipe, trigger to SMS');
    const triggerToSms = await measureTriggerToSms(startApi);
    progress('npm start: the same missed calls while another organization enrols 1 000 leads in a three-step automation');
    const bulkApi = succeeding(jsonClient(npmStart.url, (await npmStart.newOrganization('Bench bulk enrolment')).apiKey));
    const triggerToSmsDuringBulk = await measureTriggerToSmsDuringBulk(startApi, bulkApi, { baseline: triggerToSms });
    npmStartFigures = { page, create, served: combined(servedSlices), bare: combined(bareSlices), startSeconds: npmStart.startSeconds, triggerToSms, triggerToSmsDuringBulk };
    startBare.destroy();
  } finally {
    await npmStart.stop();
  }

  // Creates per second of one organization: the rate its single counter and sequence items must take.
  progress('capacity: lead creates per second in one organization, sharded and not, and spread over 16');
  const { raiseOrganizationCounterShards } = await import('../../functions/organization/counter-shards');
  const createsPerSecond = async (organizations: { organizationId: string; counterShards?: number }[]) =>
    throughput(async () => {
      const organization = organizations[created % organizations.length]!;
      await invokeAs('leads/handlers#createLeadHandler', { httpMethod: 'POST', path: '/v1/leads', body: createBody() }, organization);
    }, { clients: 32, seconds: 8 }).then(({ perSecond }) => perSecond);
  const single = await stack.newOrganization('Bench single');
  const sharded = await stack.newOrganization('Bench sharded');
  await raiseOrganizationCounterShards(sharded.organizationId, 8);
  const spread = await Promise.all(Array.from({ length: 16 }, (_, i) => stack.newOrganization(`Bench spread ${i}`)));
  const capacity = {
    single: await createsPerSecond([single]),
    sharded: await createsPerSecond([{ organizationId: sharded.organizationId, counterShards: 8 }]),
    spread: await createsPerSecond(spread),
  };

  // 4. Scale and depth.
  progress(`scale: loading 100 and ${SCALE_ITEMS} leads, each with a CALL inquiry`);
  const small = await stack.newOrganization('Bench small');
  const large = await stack.newOrganization('Bench large');
  const loadStarted = performance.now();
  await bulkLoadCallInquiries(small.organizationId, 100, progress);
  await bulkLoadCallInquiries(large.organizationId, SCALE_ITEMS, progress);
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const smallApi = jsonClient(stack.url, small.apiKey);
  const largeApi = jsonClient(stack.url, large.apiKey);
  progress('scale: page 1 of leads and of CALL inquiries, small against large');
  const scale = {
    leads: await compare(() => largeApi.get('/v1/leads?page=1'), () => smallApi.get('/v1/leads?page=1'), { rounds: ROUNDS / 2 }),
    inquiries: await compare(() => largeApi.get('/v1/inquiries?source=CALL'), () => smallApi.get('/v1/inquiries?source=CALL'), { rounds: ROUNDS / 2 }),
  };
  progress('depth: pages 1, 10, 50, 100, 200 of limit 100, by page number and by cursor');
  const depth: Depth[] = [];
  const cursors = await cursorsTo(largeApi, [10, 50, 100, 200]);
  const leadsOfLarge = leadKeys.leads(large.organizationId);
  // The Query a page needs, bare: 101 items from a position (none for page 1), newest first.
  const bareQueryFrom = (position?: Record<string, unknown>) => () =>
    bare.send(new QueryCommand({ TableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': leadsOfLarge.pk, ':prefix': leadsOfLarge.skPrefix }, ScanIndexForward: false, Limit: 101, ExclusiveStartKey: position }));
  for (const page of [1, 10, 50, 100, 200]) {
    const cursor = cursors.get(page);
    const byPage = await compare(() => largeApi.get(`/v1/leads?page=${page}&limit=100`), () => largeApi.get('/v1/leads?page=1&limit=100'), { rounds: 15, warmUp: 2 });
    if (!cursor) {
      depth.push({ page, byPage });
      continue;
    }
    // A cursor is its position, base64url JSON before the signature.
    const position = (JSON.parse(Buffer.from(cursor.split('.')[0]!, 'base64url').toString('utf8')) as { k: Record<string, unknown> }).k;
    const byCursor = await compare(() => largeApi.get(`/v1/leads?limit=100&cursor=${encodeURIComponent(cursor)}`), () => largeApi.get('/v1/leads?page=1&limit=100'), { rounds: 15, warmUp: 2 });
    const cursorOverBare = await compare(() => largeApi.get(`/v1/leads?limit=100&cursor=${encodeURIComponent(cursor)}`), bareQueryFrom(position), { rounds: 15, warmUp: 2 });
    const emulator = await compare(bareQueryFrom(position), bareQueryFrom(), { rounds: 15, warmUp: 2 });
    depth.push({ page, byPage, byCursor: byCursor.ratio, cursorOverBare: cursorOverBare.ratio, emulator: emulator.ratio });
  }

  // 5. Reference page.
  progress('reference page: bytes over the wire for a first load');
  const wire = await firstLoadBytes(stack.url);

  // 5b. The owners' console: a first visit of its sign-in screen in Chromium.
  progress(chromiumAvailable ? 'console: bytes and time to interactive of a first visit of /console/sign-in, in Chromium' : 'console: no Chromium (CHROMIUM_PATH), its first load is not measured');
  const consoleLoad = chromiumAvailable ? await measureConsoleFirstLoad(stack.url, { rounds: Number(process.env.BENCH_CONSOLE_ROUNDS ?? 21) }) : undefined;

  progress('tenant sessions: a warm call signed for its organization against one signed as the function, and a new organization\'s first');
  const { measureTenantSessions } = await import('./tenant-sessions');
  const tenantSessions = await measureTenantSessions({ endpoint: stack.endpoint, tableName: TableName, key: leadKeys.lead(org.organizationId, leadId), rounds: ROUNDS });

  progress('authority: a warm request with a member’s key against one with the organization’s, and a revoked key’s next request');
  const { measureAuthority, authorityRatios } = await import('./authority');
  const authority = await measureAuthority({ url: stack.url, newOrganization: stack.newOrganization, rounds: ROUNDS });

  // 6. Cold starts (no stack needed, but it is cheap to keep).
  const coldStarts = await measureColdStarts({ rounds: Number(process.env.BENCH_IMPORT_ROUNDS ?? 5), progress });

  // 7. The API stack's synth and sizes (no stack needed).
  const stacks = measureStackSizes(progress);

  const ratios = [...collectRatios({ visits, overhead, http, aroundTheClock, served, serverCpuMsPerCall, bareServed, npmStart: npmStartFigures, scale, depth, coldStarts, wire }, statusChangeFloor), ...tenantSessionRatios(tenantSessions), ...authorityRatios(authority), ...(consoleLoad ? consoleRatios(consoleLoad) : [])];
  const minutes = (performance.now() - started) / 60_000;
  writeFileSync(new URL('../../docs/performance.md', import.meta.url), renderReport({ visits, overhead, http, aroundTheClock, served, serverCpuMsPerCall, bareServed, npmStart: npmStartFigures, capacity, scale, depth, coldStarts, wire, consoleLoad, ratios, stacks, loadSeconds, scaleItems: SCALE_ITEMS, minutes }));
  writeFileSync(new URL('../../docs/performance.svg', import.meta.url), renderChart(ratios));
  const missed = ratios.filter((ratio) => !ratio.met);
  progress(`done in ${minutes.toFixed(1)} min: ${ratios.length - missed.length} of ${ratios.length} targets met${missed.length ? `; not met: ${missed.map((r) => r.name).join('; ')}` : ''}`);
} finally {
  bare.destroy();
  await stack.stop();
}

interface HandlerRequest {
  httpMethod: string;
  path: string;
  pathParameters?: Record<string, string> | null;
  body?: unknown;
}
type Invoke = (handler: string, request: HandlerRequest) => Promise<{ statusCode: number }>;

/**
 * The local server in a child process (test/bench/server-process.ts) against this run's DynamoDB Local, with its
 * CPU time read from /proc, so a throughput run sees it from outside as a client would.
 */
async function serverInItsOwnProcess(): Promise<{ url: string; cpuMs: () => number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/server-process.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bench's server process exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  // Fields 14 and 15 of /proc/<pid>/stat: user and system time in clock ticks of 10 ms.
  const cpuMs = () => readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ').slice(11, 13).reduce((sum, ticks) => sum + Number(ticks) * 10, 0);
  const stop = () => new Promise<void>((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  return { url, cpuMs, stop };
}

/** Calls a function's handler in this process with the event API Gateway would send, as a warm Lambda would. */
async function handlerInvoker() {
  const cache = new Map<string, (event: unknown, context: unknown) => Promise<{ statusCode: number }>>();
  const context = { awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 10_000 };
  return async (handler: string, { httpMethod, path, pathParameters = null, body }: HandlerRequest, authorizer: { organizationId: string; counterShards?: number }) => {
    if (!cache.has(handler)) {
      const { module, exportName } = parseHandler(handler);
      cache.set(handler, (await import(`../../functions/${module}.ts`))[exportName]);
    }
    const response = await cache.get(handler)!(
      {
        httpMethod,
        path,
        resource: path,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        queryStringParameters: null,
        pathParameters,
        body: body === undefined ? null : JSON.stringify(body),
        isBase64Encoded: false,
        requestContext: { requestId: `bench-${Math.random()}`, path, authorizer },
      },
      context,
    );
    if (response.statusCode >= 300) throw new Error(`${httpMethod} ${path} answered ${response.statusCode}`);
    return response;
  };
}

/**
 * The bare calls a create needs: the same commands, each transaction with as many items of the same attributes,
 * written as plain Puts to a partition of their own. Read off one real create.
 */
async function bareCallsOfCreate(createOnce: () => Promise<unknown>, { client = bare, tableName = TableName }: { client?: DynamoDBDocumentClient; tableName?: string } = {}): Promise<() => Promise<unknown>> {
  const seen: { command: string; input: any }[] = [];
  const watch = { step: 'initialize' as const, name: 'benchCreateShape' };
  dynamo.middlewareStack.add((next, context) => async (args) => {
    seen.push({ command: String(context.commandName), input: structuredClone(args.input) });
    return next(args);
  }, watch);
  await createOnce();
  dynamo.middlewareStack.remove('benchCreateShape');
  let n = 0;
  const itemsOf = (entry: any) => ({ ...(entry.Put?.Item ?? entry.Update?.Key ?? entry.ConditionCheck?.Key ?? entry.Delete?.Key), ...(entry.Update?.ExpressionAttributeValues ?? {}) });
  return async () => {
    n++;
    for (const { command, input } of seen) {
      if (command === 'UpdateItemCommand') {
        await client.send(new UpdateCommand({ TableName: tableName, Key: { pk: 'BENCH#SEQUENCE', sk: 'SEQ' }, UpdateExpression: 'ADD #v :one', ExpressionAttributeNames: { '#v': 'value' }, ExpressionAttributeValues: { ':one': 1 }, ReturnValues: 'UPDATED_NEW' }));
      } else if (command === 'TransactWriteItemsCommand') {
        const items = (input.TransactItems as unknown[]).map((entry, i) => ({ Put: { TableName: tableName, Item: { ...itemsOf(entry), pk: `BENCH#CREATE#${n}`, sk: `ITEM#${i}` } } }));
        await client.send(new TransactWriteCommand({ TransactItems: items }));
      }
    }
  };
}

/**
 * The reads a request makes, recorded once and replayed with the bare client in the same round trips: each round's
 * calls sent together, the next round after them, as the handler sends them.
 */
async function bareReadsOf(readOnce: () => Promise<unknown>): Promise<() => Promise<unknown>> {
  const seen: { command: string; input: any; sentAt: number; answeredAt: number }[] = [];
  dynamo.middlewareStack.add((next, context) => async (args) => {
    const call = { command: String(context.commandName), input: structuredClone(args.input), sentAt: performance.now(), answeredAt: Infinity };
    seen.push(call);
    const result = await next(args);
    call.answeredAt = performance.now();
    return result;
  }, { step: 'initialize', name: 'benchReadShape' });
  await readOnce();
  dynamo.middlewareStack.remove('benchReadShape');
  const rounds: (typeof seen)[] = [];
  for (const call of seen) {
    const round = rounds.at(-1);
    if (round && call.sentAt < Math.max(...round.map((each) => each.answeredAt))) round.push(call);
    else rounds.push([call]);
  }
  const commands = { GetItemCommand: GetCommand, QueryCommand, BatchGetItemCommand: BatchGetCommand } as Record<string, new (input: any) => any>;
  for (const { command } of seen) if (!commands[command]) throw new Error(`bareReadsOf replays reads only, not ${command}`);
  return async () => {
    for (const round of rounds) await Promise.all(round.map(({ command, input }) => bare.send(new commands[command]!(input))));
  };
}

/** The cursors that start pages of limit 100, walked once from page 1. */
async function cursorsTo(client: ReturnType<typeof jsonClient>, pages: number[]): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  let cursor: string | null = null;
  for (let page = 1; page < Math.max(...pages); page++) {
    const answer: { body: { nextCursor: string | null } } = await client.get(`/v1/leads?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    cursor = answer.body.nextCursor;
    if (!cursor) break;
    if (pages.includes(page + 1)) found.set(page + 1, cursor);
  }
  return found;
}

/** Bytes a browser receives for /docs and what it loads (the renderer and the document), asking for gzip and brotli. */
async function firstLoadBytes(baseUrl: string): Promise<{ path: string; bytes: number; encoding: string }[]> {
  const fetchRaw = (path: string) =>
    new Promise<{ bytes: number; body: Buffer; encoding: string }>((resolve, reject) => {
      const req = httpRequest(new URL(path, baseUrl), { headers: { 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ bytes: Buffer.concat(chunks).length, body: Buffer.concat(chunks), encoding: String(res.headers['content-encoding'] ?? 'identity') }));
      });
      req.on('error', reject);
      req.end();
    });
  const page = await fetchRaw('/docs');
  const html = page.body.toString('utf8');
  const script = /renderer\.src = base \+ "([^"]+)"/.exec(html)?.[1] ?? /src="([^"]+\.js)"/.exec(html)?.[1] ?? '/docs/api-reference.js';
  const loads = [{ path: '/docs', ...page }, { path: script, ...(await fetchRaw(script)) }, { path: '/openapi', ...(await fetchRaw('/openapi')) }];
  return loads.map(({ path, bytes, encoding }) => ({ path, bytes, encoding }));
}

/** Write units as DynamoDB Local reports them (ReturnConsumedCapacity INDEXES): the table's and each index's. */
interface WriteUnits {
  total: number;
  table: number;
  indexes: Record<string, number>;
}

/**
 * The least a status change can cost while the status list and the change log are two index entries: bare, a lead-sized
 * item moved in both (a new status and a new updatedAt) in one transaction with one counter, as a status change moves
 * its lead with its counters.
 */
async function twoIndexMoveFloor(organizationId: string): Promise<WriteUnits> {
  const lead = { id: 'lead_bench_floor', status: 'NEW', companyId: null };
  const key = leadKeys.lead(organizationId, lead.id);
  const padding = 'x'.repeat(600);
  await bare.send(new PutCommand({ TableName, Item: { ...key, ...leadKeys.leadIndexes(organizationId, lead), ...changeLogKey(organizationId, LEAD_CHANGES), updatedAt: new Date().toISOString(), padding } }));
  const moved = leadKeys.leadIndexes(organizationId, { ...lead, status: 'CONTACTED' });
  const { ConsumedCapacity } = await bare.send(
    new TransactWriteCommand({
      TransactItems: [
        { Update: { TableName, Key: key, UpdateExpression: 'SET gsi2pk = :status, updatedAt = :now', ExpressionAttributeValues: { ':status': moved.gsi2pk, ':now': new Date(Date.now() + 1).toISOString() } } },
        { Update: { TableName, Key: keys.counter(organizationId, 'BENCH_FLOOR'), UpdateExpression: 'ADD #count :one', ExpressionAttributeNames: { '#count': 'count' }, ExpressionAttributeValues: { ':one': 1 } } },
      ],
      ReturnConsumedCapacity: 'INDEXES',
    }),
  );
  await bare.send(new TransactWriteCommand({ TransactItems: [{ Delete: { TableName, Key: key } }, { Delete: { TableName, Key: keys.counter(organizationId, 'BENCH_FLOOR') } }] }));
  const units = ConsumedCapacity?.[0];
  return {
    total: units?.CapacityUnits ?? 0,
    table: units?.Table?.CapacityUnits ?? 0,
    indexes: Object.fromEntries(Object.entries(units?.GlobalSecondaryIndexes ?? {}).map(([index, capacity]) => [index, capacity.CapacityUnits ?? 0]).sort()),
  };
}

/**
 * The write units of the tour's lead create (a company, an email and a phone), a status change, and a web form inquiry
 * for a known lead, as DynamoDB Local counts them (docs/capacity.md works out DynamoDB's own, item by item).
 */
function writeUnitRatios(visits: RouteVisit[], floor: WriteUnits): Ratio[] {
  const writeUnits = (key: string) => visits.find((visit) => `${visit.route.method} ${visit.route.path}` === key)!.calls.reduce((total, call) => total + call.writeUnits, 0);
  const target = (name: string, value: number, limit: number, why?: string): Ratio => ({ name, value, target: limit, better: 'lower', met: value <= limit, why });
  return [
    target('Write units of POST /v1/leads (a company, an email, a phone)', writeUnits('POST /v1/leads'), 12),
    target('Write units of POST /v1/inquiries (a web form, a known lead)', writeUnits('POST /v1/inquiries'), 16),
    target('Write units of PATCH /v1/leads/{id} (a status change)', writeUnits('PATCH /v1/leads/{leadId}'), 10,
      `A status change moves the lead in two indexes, the status list (sorted by id) and the change log (sorted by updatedAt, which every write moves). The same moves bare, in this run: a transaction that moves one item in both and writes one counter costs ${floor.total} units (table ${floor.table}, ${Object.entries(floor.indexes).map(([index, units]) => `${index} ${units}`).join(', ')}), before the lead's company-list copy is rewritten (2 more); no transaction that keeps the two lists apart costs 10. The transaction's other items (two status counters, the name items, which carry the status, and the STATUS_CHANGED activity) add nothing to the table's units as DynamoDB Local counts them. docs/decisions/store.md, "What a write costs".`),
  ];
}

/**
 * Milliseconds of import per KB of bundle: the median of the slopes between every two bundles (Theil–Sen), which one
 * stalled import or one bundle unlike the rest (the reference page's, without the AWS SDK) does not move.
 */
function importMsPerKilobyte(bundles: { bytes: number; importMs: number }[]): number {
  const slopes = bundles.flatMap((a, i) => bundles.slice(i + 1).flatMap((b) => (Math.abs(b.bytes - a.bytes) < 4096 ? [] : [((b.importMs - a.importMs) / (b.bytes - a.bytes)) * 1024])));
  return median(slopes);
}

/** Why a request from outside against npm start took more than twice its bare calls, from the same run's medians. */
function servedFromOutside(comparison: Comparison, what: string): string {
  return `Served in ${comparison.measured.toFixed(2)} ms against ${comparison.baseline.toFixed(2)} ms bare: ${what} crosses two more processes than the bare calls (the client to npm start, npm start to DynamoDB Local and back), on two cores that all three share; the medians move by a tenth or two of the ratio from run to run on this machine.`;
}

/** Signing each call for its organization: a warm call's cost, and a new organization's one AssumeRole (docs/decisions/tenancy.md). */
function tenantSessionRatios({ warm, first }: TenantSessionFigures): Ratio[] {
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  return [
    { name: 'A warm call signed for its organization ÷ signed as the function', value: warm.ratio, target: 1.05, better: 'lower', met: warm.ratio <= 1.05, why: `The session is found in the container's cache by the request's organization: ${ms(warm.measured)} against ${ms(warm.baseline)}.` },
    {
      name: 'AssumeRoles for a new organization’s first call on a warm container',
      value: first.assumeRoles,
      target: 1,
      better: 'lower',
      met: first.assumeRoles <= 1,
      why: `Its first call took ${ms(first.ms)} against a warm call's ${ms(first.warmMs)}: one STS round trip (here an STS on this machine; deployed, STS's regional endpoint), then cached for the hour.`,
    },
  ];
}

function collectRatios(f: Pick<BenchFigures, 'visits' | 'overhead' | 'http' | 'aroundTheClock' | 'served' | 'serverCpuMsPerCall' | 'bareServed' | 'npmStart' | 'scale' | 'depth' | 'coldStarts' | 'wire'>, statusChangeFloor: WriteUnits): Ratio[] {
  const at = (name: string, value: number, target: number, better: 'lower' | 'higher' = 'lower', why?: string): Ratio => ({ name, value, target, better, met: better === 'lower' ? value <= target : value >= target, why });
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const handlerWork = (c: Comparison) =>
    `The handler's own work (middy, Powertools, validating the request, mapping each item through its schema, signing the cursor, JSON) took ${ms(c.measured - c.baseline)} over ${ms(c.baseline)} of DynamoDB calls.`;
  const slowest = [...f.coldStarts.functions].sort((a, b) => b.ratio - a.ratio)[0]!;
  const worstImport = slowest.ratio;
  const medianImport = median(f.coldStarts.functions.map((fn) => fn.ratio));
  // Each bundle against its budget (test/support/bundles.ts).
  const largest = Math.max(...f.coldStarts.functions.map((fn) => fn.bytes / bundleBudget(fn.module)));
  // What a KB of bundle costs at import in this run, and so what a target leaves a bundle over the bare client's.
  const bundles = [{ bytes: f.coldStarts.baseline.bytes, importMs: f.coldStarts.baseline.importMs }, f.coldStarts.floor, f.coldStarts.floorWithoutPowertools, ...f.coldStarts.functions];
  const msPerKb = importMsPerKilobyte(bundles);
  const kbAllowed = (target: number) => ((target - 1) * f.coldStarts.baseline.importMs) / msPerKb;
  const kbOver = (bytes: number) => (bytes - f.coldStarts.baseline.bytes) / 1024;
  const kb = (value: number) => `${Math.round(value)} KB`;
  const bytesBound = (target: number) =>
    `Import time follows a bundle's size: across this run's bundles each KB past the bare client's ${kb(f.coldStarts.baseline.bytes / 1024)} added ${msPerKb.toFixed(3)} ms (the median slope between any two bundles), so ${target}× leaves about ${kb(kbAllowed(target))} over it.`;
  const page1 = f.depth.find((d) => d.page === 1)!;
  const page100 = f.depth.find((d) => d.page === 100)!;
  const perSkippedKey = ((page100.byPage.measured - page1.byPage.measured) / 9_900) * 1000;
  return [
    at('Routes over their class budget without a named reason', f.visits.filter((v) => !withinBudget(v) && !v.exception).length, 0),
    at('GET /v1/leads/{id} in process ÷ bare GetItem', f.overhead.get.ratio, 1.3, 'lower', handlerWork(f.overhead.get)),
    at('GET /v1/leads in process ÷ bare Query ∥ GetItem', f.overhead.list.ratio, 1.3, 'lower', handlerWork(f.overhead.list)),
    at('POST /v1/leads in process ÷ bare UpdateItem + TransactWriteItems', f.overhead.create.ratio, 1.5),
    at('GET /v1/leads/{id} over HTTP ÷ bare', f.http.get.ratio, 2),
    at('GET /v1/leads over HTTP ÷ bare', f.http.list.ratio, 2),
    at('POST /v1/leads over HTTP ÷ bare', f.http.create.ratio, 2),
    at('GET /v1/leads?limit=50 from outside against npm start ÷ bare 50-item Query', f.npmStart.page.ratio, 2, 'lower', servedFromOutside(f.npmStart.page, 'the page of 50 leads (read, mapped and written as JSON)')),
    at('POST /v1/leads from outside against npm start ÷ bare transaction', f.npmStart.create.ratio, 2, 'lower', servedFromOutside(f.npmStart.create, 'the create')),
    at('GET /v1/leads?limit=50 throughput at 16 clients against npm start ÷ bare', f.npmStart.served.perSecond / f.npmStart.bare.perSecond, 0.6, 'higher'),
    at('GET /v1/callers/{phone} over HTTP ÷ bare', f.http.caller.ratio, 2),
    at('GET /v1/receptionist/context over HTTP ÷ bare', f.http.context.ratio, 2),
    at('GET /v1/availability (a week, two members) over HTTP ÷ bare', f.http.availability.ratio, 2),
    at('GET /v1/callers/{phone} of a business open 24/7 ÷ of one open office hours', f.aroundTheClock.caller.ratio, 2),
    at('GET /v1/receptionist/context of a business open 24/7 ÷ of one open office hours', f.aroundTheClock.context.ratio, 2),
    at('GET /v1/leads throughput at 16 clients ÷ bare', f.served.perSecond / f.bareServed.perSecond, 0.6, 'higher',
      `Two cores carry the client, the server and DynamoDB Local at once. Each served request took ${ms(f.serverCpuMsPerCall)} of the server's CPU and ${ms(f.served.cpuMsPerCall)} of the client's, against ${ms(f.bareServed.cpuMsPerCall)} of the client's per bare call pair: the server's own work (HTTP, routing, the authorizer's cache, middy, Powertools, validation, item mapping, JSON) competes with DynamoDB Local for the same cores (section 3). Deployed, it runs in Lambda, beside neither the client nor the table.`),
    at(`GET /v1/leads page 1 at ${SCALE_ITEMS} ÷ at 100 items`, f.scale.leads.ratio, 1.2),
    at(`GET /v1/inquiries?source=CALL at ${SCALE_ITEMS} ÷ at 100 items`, f.scale.inquiries.ratio, 1.2),
    at('Page 100 of limit 100 ÷ page 1', page100.byPage.ratio, 3, 'lower',
      `A page number walks the 9 900 keys before it, and DynamoDB Local spends about ${perSkippedKey.toFixed(1)} µs on each (its bare Query from the same position is ${page100.emulator?.toFixed(2) ?? '?'}× page 1 before any walk). In DynamoDB the walk reads those leads whole, 1 MB a call (docs/capacity.md). A cursor starts where the last page ended and costs ${page100.cursorOverBare?.toFixed(2) ?? '?'}× its bare Query (section 4).`),
    ...(page100.cursorOverBare === undefined ? [] : [at('Page 100 by cursor over HTTP ÷ the bare Query from its position', page100.cursorOverBare, 2)]),
    at('npm start until it answers (s) ÷ 8 s', f.npmStart.startSeconds / 8, 1, 'lower',
      `npm start answered after ${f.npmStart.startSeconds.toFixed(1)} s: DynamoDB Local's JVM starting, the table made and the demo organization seeded, on the two cores the bench's own DynamoDB Local shares.`),
    ...writeUnitRatios(f.visits, statusChangeFloor),
    at('Handler factory import ÷ bare document client', f.coldStarts.floor.ratio, 1.15, 'lower',
      `The factory around a read route's handler that does nothing imports in ${ms(f.coldStarts.floor.importMs)}: middy, valibot, the route's schemas and Powertools (a write route's, with its write path loaded at import, ${f.coldStarts.writeFloor.ratio.toFixed(2)}×). The same floor with Powertools taken out imports at ${f.coldStarts.floorWithoutPowertools.ratio.toFixed(2)}× (section 5): Powertools Logger and Metrics are ${(f.coldStarts.floor.ratio - f.coldStarts.floorWithoutPowertools.ratio).toFixed(2)}× of the bare client by themselves (their constructors open stdout and stderr and build their stores), and the design keeps them (docs/decisions/performance.md, "Cold starts"). ${bytesBound(1.15)} The floor carries ${kb(kbOver(f.coldStarts.floor.bytes))} over it, ${kb((f.coldStarts.floor.bytes - f.coldStarts.floorWithoutPowertools.bytes) / 1024)} of them Powertools.`),
    at('Slowest function import ÷ bare document client', worstImport, 1.4, 'lower',
      `The slowest, ${slowest.handler}, imports in ${ms(slowest.importMs)}, over the factory's ${f.coldStarts.floor.ratio.toFixed(2)}× and the median function's ${medianImport.toFixed(2)}×. Every function carries that floor and its own code: the stream consumer the event, audit and webhook stores and the automations' triggers it reads every record with (its run starts and stops, the SQS client and each resource's event and audit mappings load with the first record that needs them); the MCP function, without the AWS SDK, the protocol SDK, whose server and transport alone import at ${f.coldStarts.mcpSdk.ratio.toFixed(2)}× the bare client (${ms(f.coldStarts.mcpSdk.importMs)}: the protocol's zod schemas are built at import). A ceiling of 1.4× leaves a function ${(1.4 - f.coldStarts.floor.ratio).toFixed(2)}× over the floor (section 5; docs/decisions/performance.md, "Cold starts"). ${bytesBound(1.4)} The slowest carries ${kb(kbOver(slowest.bytes))} over it, the median function ${kb(median(f.coldStarts.functions.map((fn) => kbOver(fn.bytes))))}.`),
    at(`Largest bundle ÷ its budget (${MAX_BUNDLE_BYTES / 1024} KB)`, largest, 1),
    at('/docs first load (MB) ÷ 1.5 MB', f.wire.reduce((sum, w) => sum + w.bytes, 0) / 1024 / 1024 / 1.5, 1),
  ];
}
