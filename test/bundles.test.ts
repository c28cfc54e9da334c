import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, parse, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createOrganizationWithKey } from '../infra/demo/organization';
import { entitiesOfChanges, resources, routes } from '../functions/resources';
import { DockerImage } from 'aws-cdk-lib';
import { bundledHandler, FUNCTION_HANDLERS, FUNCTION_MODULES, functionBundlesIn, LAZY_CHUNK_BYTES, moduleBundling, type ModuleBundle } from '../infra/cdk/bundling';
import { bundleBudget, bundleFunctions, ENCRYPTION_SDK_MODULES, entryFileOf, readWith, NUMBERING_PLAN_MODULES, RUNNER_LAZY_CLIENTS } from './support/bundles';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { startReceiver } from './support/receiver';
import { insertRecordOf } from './support/stream-records';
import { handlerOf, parseHandler, routeWrites } from '#shared/routes/route';
import { referenceRenderer } from '#shared/openapi/reference-renderer';
import { packTools } from '../functions/mcp/built-tools';
import { toolsFromDocument } from '../functions/mcp/document-tools';
import { asTool } from '../functions/mcp/server';

// As the stack sets it on every route's function: the bundles run as in Lambda, with no local server to name the API.
process.env.PUBLIC_BASE_URL = 'https://api.example.com';

let bundles: Record<string, ModuleBundle> = {};
/**
 * The cloud assembly the stack's bundler stages assets in (in the project, as cdk.out is), the one build it stages
 * from (`function-bundles`), which this file measures and runs, and each module's asset staged there.
 */
let assembly = '';
let outDir = '';
const assets = new Map<string, string>();

/** Stages a function's asset as CDK does: the stack's bundler run into a fresh directory of the assembly. */
const staged = (module: string, files: readonly string[] = []) => {
  const dir = mkdtempSync(join(assembly, 'asset-'));
  moduleBundling(module, files).local!.tryBundle(dir, { image: DockerImage.fromRegistry('scratch') });
  return dir;
};

/** Bundles every handler module as the stack does, and stages each module's asset as the stack's bundler does. */
// Every function bundled once, by the stack's own bundler: its build is what each staged asset copies, so a second
// build to measure would cost as much again (half a minute alone on two cores, minutes beside the other test files).
beforeAll(() => {
  mkdirSync('test-results', { recursive: true });
  assembly = mkdtempSync(join('test-results', 'assembly-'));
  outDir = join(assembly, 'function-bundles');
  bundles = functionBundlesIn(assembly);
  for (const module of FUNCTION_MODULES) assets.set(module, staged(module));
}, 300_000);
afterAll(() => {
  if (assembly) rmSync(assembly, { recursive: true, force: true });
});

/** Loads the function as deployed: its staged asset's file, which loads its chunks from beside it. */
async function bundled(handlerName: string) {
  const { module, exportName } = parseHandler(handlerName);
  const [file] = bundledHandler(handlerName).split('.');
  const exports = (await import(pathToFileURL(join(assets.get(module)!, `${file}.mjs`)).href)) as Record<string, (event: unknown, context: unknown) => Promise<{ statusCode: number; headers?: Record<string, string>; body: string }>>;
  return { handler: exports[exportName]! };
}

/** The relative files a bundle's file imports, statically or with import(), as its minified text names them. */
const importedFiles = (text: string): string[] => [...text.matchAll(/\bimport\s*\(?\s*"(\.{1,2}\/[^"]+)"|\bfrom\s*"(\.{1,2}\/[^"]+)"/g)].map((match) => match[1] ?? match[2]!);
/** The line every bundled file begins with (infra/cdk/bundling.ts, `banner`). */
const BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";
/** Statements that only link modules: imports, re-exports, exports of imported bindings, and the map's comment. */
const LINKING = /import\s*\{[^}]*\}\s*from\s*"[^"]+";|import\s*"[^"]+";|export\s*\{[^}]*\}(\s*from\s*"[^"]+")?;|\/\/# sourceMappingURL=\S+/g;
const dynamicallyImported = (text: string): string[] => [...text.matchAll(/\bimport\s*\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g)].map((match) => match[1]!);

const context = { awsRequestId: 'bundle-test', getRemainingTimeInMillis: () => 10_000 };
const route = (operationId: string) => routes.find((candidate) => candidate.operationId === operationId)!;
/** The event API Gateway hands a route's function, for the organization its authorizer found. */
const apiEvent = (organizationId: string, operationId: string, path: string, body: unknown, pathParameters: Record<string, string> | null = null) => ({
  httpMethod: route(operationId).method,
  path,
  headers: { 'content-type': 'application/json' },
  queryStringParameters: null,
  pathParameters,
  body: body === null ? null : JSON.stringify(body),
  requestContext: { requestId: `r-${operationId}`, authorizer: { organizationId } },
});
let emptyCo: ReturnType<typeof createOrganizationWithKey> | undefined;

describe('the bundled functions', () => {
  it.each(FUNCTION_MODULES.map((module) => [module, bundleBudget(module) / 1024]))('%s stays within %i KB at import', (module) => {
    expect(bundles[module], `no bundle for ${module}`).toBeDefined();
    expect(bundles[module]!.importBytes).toBeLessThanOrEqual(bundleBudget(module));
  });

  it('deploys each function from its module’s bundle as built here: the stack’s bundler copies the file its handler names, the chunks it loads, their maps and assets', () => {
    const checkout = relative(parse(process.cwd()).root, process.cwd());
    for (const handler of FUNCTION_HANDLERS) {
      const { module, exportName } = parseHandler(handler);
      const bundle = bundles[module]!;
      // The function's handler setting names the staged file and an export of it.
      const [file, exported] = bundledHandler(handler).split('.');
      const dir = assets.get(module)!;
      expect(bundle.files[0], handler).toBe(`${file}.mjs`);
      expect(readdirSync(dir).sort(), handler).toEqual(bundle.files.flatMap((name) => [name, `${name}.map`]).sort());
      // Byte for byte the bundle and chunks this file measures and runs.
      for (const name of bundle.files) expect(readFileSync(join(dir, name)).equals(readFileSync(join(bundle.dir, name))), `${handler}: ${name}`).toBe(true);
      expect(bundle.exports, handler).toContain(exported);
      expect(exported, handler).toBe(exportName);
      // Its source maps never name where the project is checked out: a map is part of the asset's hash, which must be
      // the same in every checkout.
      const sources = JSON.parse(readFileSync(join(dir, `${file}.mjs.map`), 'utf8')).sources as string[];
      expect(sources, handler).toContain(relative(join(assembly, 'function-bundles', relative(outDir, bundle.dir)), `functions/${module}.ts`));
      for (const name of bundle.files) {
        const mapped = JSON.parse(readFileSync(join(dir, `${name}.map`), 'utf8')).sources as string[];
        expect(mapped.filter((source) => isAbsolute(source) || source.includes(checkout)), `${handler}: ${name}`).toEqual([]);
      }
    }
    const script = routes.find((route) => route.assets?.length)!;
    const scriptModule = parseHandler(handlerOf(script)).module;
    expect(readdirSync(staged(scriptModule, [...script.assets!])).sort()).toEqual([...bundles[scriptModule]!.files.flatMap((name) => [name, `${name}.map`]), ...script.assets!.map((asset) => basename(asset))].sort());
    // CDK stages an asset once per distinct bundling settings (their JSON): a module, or its assets, must never share another's.
    const settings = [...FUNCTION_MODULES.map((module) => moduleBundling(module)), moduleBundling(scriptModule, [...script.assets!])];
    expect(new Set(settings.map((options) => JSON.stringify(options))).size).toBe(FUNCTION_MODULES.length + 1);
  });

  it('stages with each function every chunk its files import, at import or with import(), and nothing else', () => {
    const split = FUNCTION_MODULES.filter((module) => bundles[module]!.files.length > 1);
    // The modules that load large code with import() are the ones built with chunks, so this test reads some.
    expect(split).toEqual(expect.arrayContaining([...ENCRYPTION_SDK_MODULES, 'meta/handlers', 'authorizer']));
    for (const module of FUNCTION_MODULES) {
      const dir = assets.get(module)!;
      const files = readdirSync(dir).filter((name) => name.endsWith('.mjs'));
      // Walked from the file the handler names, through what each staged file's own text imports.
      const reached = new Set<string>();
      const visit = (name: string) => {
        if (reached.has(name)) return;
        reached.add(name);
        expect(files, `${module}: ${name}`).toContain(name);
        for (const imported of importedFiles(readFileSync(join(dir, name), 'utf8'))) visit(relative(dir, join(dir, imported)));
      };
      visit(bundles[module]!.files[0]!);
      expect([...reached].sort(), module).toEqual(files.sort());
    }
    // What the functions that seal secrets load at their first one is a chunk their import does not parse.
    for (const module of ENCRYPTION_SDK_MODULES) {
      const dir = assets.get(module)!;
      const lazily = readdirSync(dir).filter((name) => name.endsWith('.mjs')).flatMap((name) => dynamicallyImported(readFileSync(join(dir, name), 'utf8')));
      // Chunks are named by a source file or directory and their content's hash: the SDK's (`src`) and its streams'; in
      // a function that reads phones, the numbering plans (shared/phone-plans.ts); the inbound post's reading (receive.ts);
      // the webhook queue's SQS client, for the deliverer's retries and the routes' redeliveries (shared/aws/sqs.ts).
      const sqs = ['./sqs-<hash>.mjs'];
      // The automations' routes load a run's start, preview and stops, and the step queue's client, at their first use;
      // a bulk enrolment's start (and the enrolment queue's client) and its read, likewise.
      const automations = ['./esm-<hash>.mjs', './jobs-<hash>.mjs', './preview-<hash>.mjs', './start-<hash>.mjs', './start-<hash>.mjs', './stops-<hash>.mjs', ...sqs, ...sqs];
      // The step runner's texting, Scheduler and step-queue clients, each at its first use (RUNNER_LAZY_CLIENTS).
      const runner = ['./end-user-messaging-send-<hash>.mjs', './scheduler-calls-<hash>.mjs', ...sqs, './automated-<hash>.mjs'];
      // The stream consumer: each resource's change mappings with its first record, a run's start and stops, the owner
      // alerts and their texting, the push notices (web-push with them), and the queues' client, each when first needed.
      const changes = Array<string>(resources.filter((resource) => resource.events?.length || resource.audited?.length).length).fill('./changes-<hash>.mjs');
      const stream = [...changes, './end-user-messaging-send-<hash>.mjs', './esm-<hash>.mjs', './owner-alerts-<hash>.mjs', './send-<hash>.mjs', './start-<hash>.mjs', ...sqs, ...sqs];
      const own = { 'automations/handlers': automations, 'automations/runner-handler': runner, 'inbound-endpoints/handlers': ['./phone-plans-<hash>.mjs', './receive-<hash>.mjs'], 'stream/record': stream, 'webhooks/deliver': sqs, 'webhooks/handlers': sqs }[module] ?? [];
      // STS, at the first AssumeRole where the function is not given the tenant-data role (shared/tenancy/credentials.ts).
      const sts = ['./sts-<hash>.mjs'];
      // A module with write routes, the handler factory's write path (shared/http/write-path.ts).
      const writes = Object.keys(bundles[module]!.inputs).includes('shared/http/write-path.ts') ? ['./write-path-<hash>.mjs'] : [];
      expect(lazily.map((file) => file.replace(/-[A-Z0-9]{8}\.mjs$/, '-<hash>.mjs')).sort(), module).toEqual(['./event-streams-<hash>.mjs', ...own, ...sts, ...writes, './src-<hash>.mjs'].sort());
    }
  });

  it('parses at import none of what the functions load with import() when first needed: the OpenAPI document, the authorizers’ metrics', () => {
    const atImport = (module: string) => Object.keys(bundles[module]!.importInputs);
    const carried = (module: string) => Object.keys(bundles[module]!.inputs);
    // The reference page's functions build no document; the document's function builds it at its first request.
    expect(carried('meta/handlers')).toContain('functions/meta/document.ts');
    expect(atImport('meta/handlers')).not.toContain('functions/meta/document.ts');
    // An inbound endpoint's settings routes never read a post: its reading, the platforms' payloads and the inquiry's
    // ingestion are the post's function's, at its first post.
    for (const source of ['functions/inbound-endpoints/receive.ts', 'functions/inbound-endpoints/call-platforms.ts', 'functions/inbound-endpoints/forms.ts', 'functions/inquiries/ingestion.ts']) {
      expect(carried('inbound-endpoints/handlers')).toContain(source);
      expect(atImport('inbound-endpoints/handlers')).not.toContain(source);
    }
    // An authorizer counts a failure to decide (its store failed) with Powertools Metrics, made then.
    for (const module of ['authorizer', 'inbound-endpoints/authorizer']) {
      const metrics = carried(module).filter((input) => input.includes('node_modules/@aws-lambda-powertools/metrics/'));
      // Its index, when esbuild gives the re-exports a few bytes, among them.
      const files = metrics.map((input) => input.replace(/^.*node_modules\/@aws-lambda-powertools\/metrics\/lib\/esm\//, '')).filter((file) => file !== 'index.js');
      expect(files.sort(), module).toEqual(['DimensionsStore.js', 'MetadataStore.js', 'Metrics.js', 'MetricsStore.js', 'constants.js']);
      expect(atImport(module).filter((input) => metrics.includes(input)), module).toEqual([]);
    }
  });

  it('parses at import none of the automations’ run starts, stops and previews: only the routes that enrol, cancel or preview load them, at their first request', () => {
    const automations = bundles['automations/handlers']!;
    for (const source of ['functions/automations/runs/start.ts', 'functions/automations/runs/stops.ts', 'functions/automations/runs/preview.ts', 'functions/automations/runs/context.ts']) {
      expect(Object.keys(automations.inputs), source).toContain(source);
      expect(Object.keys(automations.importInputs), source).not.toContain(source);
    }
  });

  it('carries in no function the schemas only the document reads, which the resource gives (describedByResource): the inbound post’s bodies', () => {
    const inbound = bundles['inbound-endpoints/handlers']!;
    expect(Object.keys(inbound.inputs)).not.toContain('functions/inbound-endpoints/post-bodies.ts');
    // The inquiry's ingestion schemas are the post's, read at its first post, not the settings routes' at import.
    expect(Object.keys(inbound.inputs)).toContain('functions/inquiries/ingestion-schema.ts');
    expect(Object.keys(inbound.importInputs)).not.toContain('functions/inquiries/ingestion-schema.ts');
  });

  it('loads the numbering plans at the first phone read, from a chunk no function’s import parses: a route that reads no phone never loads them', () => {
    const plans = (inputs: Record<string, number>) => Object.keys(inputs).filter((input) => input.includes('node_modules/libphonenumber-js/'));
    expect(FUNCTION_MODULES.filter((module) => plans(bundles[module]!.inputs).length > 0)).toEqual(NUMBERING_PLAN_MODULES);
    for (const module of NUMBERING_PLAN_MODULES) {
      expect(plans(bundles[module]!.importInputs), module).toEqual([]);
      // The parser and the plans the bundler wrote without their formats (shared/phone-plans.ts): not the library's own
      // metadata, its as-you-type reader or its number finder.
      expect(plans(bundles[module]!.inputs).filter((input) => /metadata\.(min|max|mobile)\.json|AsYouType|findNumbers/.test(input)), module).toEqual([]);
      expect(bundles[module]!.inputs['shared/phone-plans.ts'], module).toBeGreaterThan(30 * 1024);
    }
  });

  it('loads the automation runner’s Scheduler and End User Messaging clients at the first schedule and the first text, and its automated texts at the first text, from chunks its import does not parse', () => {
    const runner = bundles['automations/runner-handler']!;
    for (const client of RUNNER_LAZY_CLIENTS) {
      const of = (inputs: Record<string, number>) => Object.keys(inputs).filter((input) => input.includes(`node_modules/${client}/`));
      expect(of(runner.inputs), client).not.toEqual([]);
      expect(of(runner.importInputs), client).toEqual([]);
      // The client and the commands it sends, not every command of its package.
      expect(of(runner.inputs).filter((input) => input.includes('/commands/')).length, client).toBeLessThanOrEqual(2);
    }
    // Nor the automated texts themselves, which a step that texts no one never runs.
    expect(Object.keys(runner.inputs)).toContain('functions/sms/automated.ts');
    expect(Object.keys(runner.importInputs).filter((input) => input.startsWith('functions/sms/'))).toEqual([]);
  });

  it('names the reference page’s renderer from build time: the page’s function ships no script and hashes none', async () => {
    const { handler } = await bundled(handlerOf(routes.find((route) => route.operationId === 'getApiReference')!));
    const page = await handler({ httpMethod: 'GET', path: '/docs', headers: {}, requestContext: { path: '/docs' } }, context);
    const name = referenceRenderer().name;
    expect(page.body).toContain(`/docs/${name}`);
    // The name is in the bundle as text, put there by the bundler; only the script's own route copies the file.
    const meta = bundles['meta/handlers']!;
    expect(meta.files.map((file) => readFileSync(join(meta.dir, file), 'utf8')).join('\n')).toContain(JSON.stringify(name));
    expect(routes.filter((route) => route.assets?.length).map((route) => route.operationId)).toEqual(['getApiReferenceScript']);
  });

  it('lists the MCP tools the document makes, built at build time: the MCP function bundles no other resource', async () => {
    const { organizationId } = await createOrganizationWithKey('Mcp Co');
    const { handler } = await bundled(handlerOf(routes.find((route) => route.operationId === 'postMcp')!));
    const response = await handler(
      {
        httpMethod: 'POST',
        path: '/mcp',
        headers: { 'content-type': 'application/json' },
        queryStringParameters: null,
        pathParameters: null,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        requestContext: { requestId: 'r3', authorizer: { organizationId, keyId: 'key_1', scope: 'full' } },
      },
      context,
    );
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).result.tools).toEqual(toolsFromDocument().filter((tool) => tool.toolset === 'curated').map(asTool));
    // The tools reach the bundler as one command-line define: Linux takes at most 128 KiB in one argument.
    expect(packTools(toolsFromDocument()).length).toBeLessThan(96 * 1024);
    const mcp = bundles['mcp/handlers']!;
    // No other resource's folder: the one decision of what a caller may call (functions/authority.ts) and the routes' roles it reads are no resource's.
    expect(Object.keys(mcp.inputs).filter((input) => input.startsWith('functions/') && !input.startsWith('functions/mcp/') && input.split('/').length > 2)).toEqual([]);
    // The protocol is the SDK's; ajv, which its server would use only to validate elicitations, is left out.
    expect(Object.keys(mcp.inputs).some((input) => input.includes('@modelcontextprotocol/sdk/dist/esm/server/'))).toBe(true);
    expect(Object.keys(mcp.inputs).filter((input) => input.includes('node_modules/ajv'))).toEqual([]);
    // It reads no table (its tools call the API), so it carries no AWS SDK: about 200 KB its cold start never parses.
    expect(Object.keys(mcp.inputs).filter((input) => /node_modules\/@(aws-sdk|smithy)\//.test(input))).toEqual([]);
  });

  it('keeps the authorizers to their own reads: neither bundles a route table or another resource', () => {
    // Every request waits on an authorizer's cold start before its function's: it carries only the key or endpoint lookup.
    // The API key's authorizer reads the key and the organization's counterShards (by its key alone, no schema of the
    // organization's records); the inbound one, the endpoint.
    // It also checks OAuth tokens: their lookup by hash, the grant and the key, the narrower of their scopes (functions/oauth's, no route of it);
    // and members' console sessions: the session by its key, the member's role by its key, and the routes above each role
    // (functions/route-roles.ts, generated: no route table), decided by functions/authority.ts for every kind.
    const owned = {
      authorizer: [
        'functions/authority.ts',
        'functions/authorizer-answer.ts',
        'functions/authorizer.ts',
        'functions/oauth/authorize-token.ts',
        'functions/oauth/entity.ts',
        'functions/oauth/metadata.ts',
        'functions/oauth/scopes.ts',
        'functions/oauth/secrets.ts',
        'functions/organization/active-role.ts',
        'functions/organization/counter-shards.ts',
        'functions/organization/entity.ts',
        'functions/organization/member-credential-keys.ts',
        'functions/organization/member-credentials.ts',
        'functions/route-roles.ts',
        'functions/sign-in/authorize-session.ts',
        'functions/sign-in/entity.ts',
        'functions/sign-in/session-token.ts',
        'functions/sign-in/sessions.ts',
        'functions/sign-in/settings.ts',
      ],
      'inbound-endpoints/authorizer': ['functions/inbound-endpoints/', 'functions/organization/counter-shards'],
    };
    for (const [module, own] of Object.entries(owned)) {
      const bundle = bundles[module]!;
      const ours = Object.keys(bundle.inputs).filter((input) => input.startsWith('functions/'));
      expect(ours.filter((input) => !own.some((prefix) => input.startsWith(prefix))), module).toEqual([]);
      expect(ours.filter((input) => input.endsWith('/routes.ts')), module).toEqual([]);
    }
    // The API key's authorizer, exactly: its handler, the counterShards read and the organization's key.
    const authorizer = bundles.authorizer!;
    expect(Object.keys(authorizer.inputs).filter((input) => input.startsWith('functions/')).sort()).toEqual(owned.authorizer);
  });

  it('loads the SQS client at the first message sent, the automation steps’, the webhook deliveries’, the sign-in codes’ and the recounts’ queues alike', () => {
    const sqs = (inputs: Record<string, number>) => Object.keys(inputs).filter((input) => input.includes('node_modules/@aws-sdk/client-sqs/'));
    const withEngine = FUNCTION_MODULES.filter((module) => Object.hasOwn(bundles[module]!.inputs, 'functions/automations/engine/engine.ts'));
    expect(withEngine).toEqual(['automations/enrolments/worker', 'automations/handlers', 'automations/runner-handler', 'stream/record']);
    const withSqs = FUNCTION_MODULES.filter((module) => sqs(bundles[module]!.inputs).length > 0);
    // Each that reaches the engine queues steps with it (shared/aws/sqs.ts); the webhook deliverer and routes send their
    // retries and redeliveries on the same client, the sign-in routes the asks for sign-in codes, the reports' routes
    // their recounts (the bulk enrolment worker queues its runs' first steps through the engine); no other function
    // sends to a queue (the other workers that take from those send nothing).
    expect(withSqs).toEqual([...withEngine, 'reports/handlers', 'sign-in/handlers', 'webhooks/deliver', 'webhooks/handlers'].sort());
    for (const module of withSqs) expect(sqs(bundles[module]!.importInputs), module).toEqual([]);
  });

  it('parses at import none of the stream consumer’s run starts and stops, nor any resource’s change mappings: each loads with the first record that needs it', () => {
    const consumer = bundles['stream/record']!;
    // Every resource's change mappings the consumer reads (its events and audited records), each a chunk of its own.
    const mappings = resources.filter((resource) => entitiesOfChanges(resource).length > 0).map((resource) => `functions/${resource.name}/changes.ts`);
    expect(mappings).toContain('functions/leads/changes.ts');
    const lazy = ['functions/automations/runs/start.ts', 'functions/automations/steps/cap.ts', ...mappings];
    for (const source of lazy) {
      expect(Object.keys(consumer.inputs), source).toContain(source);
      expect(Object.keys(consumer.importInputs), source).not.toContain(source);
    }
    // What every record is read with stays at import.
    expect(Object.keys(consumer.importInputs)).toEqual(expect.arrayContaining(['functions/automations/triggers/on-events.ts', 'functions/events/derive.ts', 'functions/audit-log/store.ts']));
  });

  it('records a lead’s status change as deployed: the stream consumer loads the lead’s change mappings and the run stops from its chunks', async () => {
    const { organizationId } = await createOrganizationWithKey('Stream Bundle Co');
    const created = await (await bundled(handlerOf(routes.find((route) => route.operationId === 'createLead')!))).handler(apiEvent(organizationId, 'createLead', '/v1/leads', { name: 'Ava Chen', email: 'ava.stream@example.com' }), context);
    expect(created.statusCode, created.body).toBe(201);
    const leadId: string = JSON.parse(created.body).lead.id;
    const { dynamo } = await import('#shared/dynamo');
    const { GetCommand, QueryCommand } = await import('@aws-sdk/lib-dynamodb');
    const { Item: before } = await dynamo.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: `ORG#${organizationId}`, sk: `LEAD#${leadId}` } }));
    const after = { ...before!, status: 'QUOTED', updatedAt: new Date(Date.parse(before!.updatedAt) + 1000).toISOString() };
    // A MODIFY as Lambda hands it: a status change, which asks the run store for the runs it stops.
    const record = insertRecordOf(after, '900000000000000000001', 'bundle-modify');
    const modify = { ...record, eventName: 'MODIFY', dynamodb: { ...record.dynamodb, OldImage: insertRecordOf(before!, '1').dynamodb!.NewImage } };
    const { handler } = (await import(pathToFileURL(join(assets.get('stream/record')!, bundles['stream/record']!.files[0]!)).href)) as { handler: (event: unknown) => Promise<unknown> };
    expect(await handler({ Records: [modify] })).toEqual({ batchItemFailures: [] });
    const { Items = [] } = await dynamo.send(new QueryCommand({ TableName: process.env.TABLE_NAME, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `ORG#${organizationId}#EVENTS` } }));
    expect(Items.filter((item) => item.type === 'lead.updated').map((item) => item.data.status)).toEqual(['QUOTED']);
  });

  it('carries the EventBridge Scheduler client in the automation step runner’s bundle alone: only it makes and deletes schedules', () => {
    const withScheduler = FUNCTION_MODULES.filter((module) => Object.keys(bundles[module]!.inputs).some((input) => input.includes('node_modules/@aws-sdk/client-scheduler/')));
    expect(withScheduler).toEqual(['automations/runner-handler']);
  });

  it('carries the AWS Encryption SDK in the bundles of the functions that seal or open secrets alone, in chunks their import does not parse, without its signatures or branch key store', () => {
    const sdk = (inputs: Record<string, number>) => Object.keys(inputs).filter((input) => input.includes('node_modules/@aws-crypto/'));
    expect(FUNCTION_MODULES.filter((module) => sdk(bundles[module]!.inputs).length > 0)).toEqual(ENCRYPTION_SDK_MODULES);
    for (const module of ENCRYPTION_SDK_MODULES) {
      // Loaded at the function's first secret: a list or a read never parses it.
      expect(sdk(bundles[module]!.importInputs), module).toEqual([]);
      expect(Object.keys(bundles[module]!.inputs).filter((input) => /node_modules\/(asn1\.js|@aws-crypto\/branch-keystore-node)\//.test(input)), module).toEqual([]);
    }
  });

  it('seals a new webhook’s secret and opens it to sign a test event, as the staged assets run in Lambda: the Encryption SDK’s chunk loaded at the first secret', async () => {
    const { organizationId } = await createOrganizationWithKey('Sealing Co');
    const receiver = await startReceiver();
    onTestFinished(() => receiver.close());
    const request = (operationId: string, body: unknown, pathParameters: Record<string, string> | null = null) => apiEvent(organizationId, operationId, '/v1/webhooks', body, pathParameters);
    const created = await (await bundled(handlerOf(route('createWebhook')))).handler(request('createWebhook', { url: receiver.url, events: ['lead.created'] }), context);
    expect(created.statusCode, created.body).toBe(201);
    const { id, secret } = JSON.parse(created.body).webhook as { id: string; secret: string };
    const tested = await (await bundled(handlerOf(route('testWebhook')))).handler(request('testWebhook', null, { webhookId: id }), context);
    expect(JSON.parse(tested.body).attempt.status).toBe('SUCCEEDED');
    const [delivery] = await receiver.waitFor(1);
    expect(new StandardWebhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });
  });

  it('reads at import only files of its own asset: the entry alone for a bundle built as one file, else the entry and chunks of its split build', () => {
    const split = FUNCTION_MODULES.filter((module) => bundles[module]!.files.some((file) => /^chunk-[A-Z0-9]{8}\.mjs$/.test(file)));
    // The modules whose import() reaches the most: every resource with a write path, the stream consumer, the document.
    expect(split).toEqual(expect.arrayContaining(['leads/handlers', 'products/handlers', 'webhooks/handlers', 'stream/record', 'meta/handlers']));
    for (const module of FUNCTION_MODULES) {
      const { files } = bundles[module]!;
      const read = [...readWith(assets.get(module)!, files[0]!)];
      expect(read[0], module).toBe(files[0]);
      expect(files, module).toEqual(expect.arrayContaining(read));
      if (files.length === 1) expect(read, module).toEqual(files);
    }
  });

  it('holds each source once among a function’s files: what import() loads shares the chunks of what its import loaded', () => {
    for (const module of FUNCTION_MODULES) {
      const dir = assets.get(module)!;
      const fileOf = new Map<string, string>();
      for (const file of bundles[module]!.files) {
        const sources = JSON.parse(readFileSync(join(dir, `${file}.map`), 'utf8')).sources as string[];
        for (const source of sources) {
          expect(fileOf.get(source), `${module}: ${source} in ${file}`).toBeUndefined();
          fileOf.set(source, file);
        }
        // A file of no source holds no code: it only imports and re-exports bindings (a chunk named for what import()
        // loads), so no module's code is in it a second time.
        if (sources.length === 0) expect(readFileSync(join(dir, file), 'utf8').replace(BANNER, '').replace(LINKING, '').trim(), `${module}: ${file}`).toBe('');
      }
    }
  });

  it('starts a function whose chunk awaits at import what the function loads later', () => {
    const sources = mkdtempSync(join('test-results', 'awaiting-'));
    onTestFinished(() => rmSync(sources, { recursive: true, force: true }));
    // Enough code loaded later for the module to be built with chunks (LAZY_CHUNK_BYTES).
    const padding = JSON.stringify('x'.repeat(LAZY_CHUNK_BYTES));
    const files = {
      'entry.ts': "import { settings } from './settings'; import { shared } from './shared'; export const handler = async () => settings + shared + (await import('./report')).report;",
      // Awaits at import what is loaded later, and is shared with it: a chunk of its own.
      'settings.ts': "const { loaded } = await import('./loaded'); export const settings = loaded;",
      'shared.ts': "export const shared = 's'.repeat(2);",
      'loaded.ts': `import { shared } from './shared'; export const loaded = shared + ${padding}.length;`,
      'report.ts': `import { settings } from './settings'; export const report = settings + ${padding};`,
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(sources, name), text);
    const bundle = bundleFunctions(join(sources, 'out'), { entry: join(sources, 'entry.ts') }).entry!;
    expect(bundle.files.filter((file) => /^chunk-[A-Z0-9]{8}\.mjs$/.test(file)), 'the two chunks the entry imports').toHaveLength(2);
    // It starts: Node ends an import whose top-level await never settles with exit code 13, which execFileSync throws.
    const started = execFileSync(process.execPath, ['--input-type=module', '-e', `const { handler } = await import(${JSON.stringify(pathToFileURL(entryFileOf(bundle)).href)}); console.log(await handler());`]);
    // settings (what it loaded: shared and the padding's length), shared, and the report (settings and the padding).
    const settings = `ss${LAZY_CHUNK_BYTES}`;
    expect(started.toString().trim()).toBe(`${settings}ss${settings}${'x'.repeat(LAZY_CHUNK_BYTES)}`);
  });

  it('parses none of the handler factory’s write path in a read route’s function: the Idempotency-Key’s records and middleware, the writer’s scope, in a chunk only a write route’s function loads', () => {
    const WRITE_PATH = ['shared/http/write-path.ts', 'shared/store/idempotency.ts'];
    const routeModules = [...new Set(routes.filter((route) => route.resource).map((route) => parseHandler(handlerOf(route)).module))];
    const withWrites = routeModules.filter((module) => Object.keys(bundles[module]!.inputs).includes('shared/http/write-path.ts'));
    // Every resource with a write route carries it, and no function of theirs parses it at import.
    // (A module whose routes all read carries the chunk too, as the factory's import() is its for every route, and never loads it.)
    const writing = routeModules.filter((module) => routes.some((route) => route.resource && parseHandler(handlerOf(route)).module === module && routeWrites(route)));
    expect(writing).toEqual(expect.arrayContaining(['leads/handlers', 'products/handlers', 'webhooks/handlers', 'organization/handlers']));
    expect(withWrites).toEqual(expect.arrayContaining(writing));
    for (const module of withWrites) {
      for (const source of WRITE_PATH) expect(Object.keys(bundles[module]!.importInputs), module).not.toContain(source);
      // Nor the Idempotency-Key middleware: only its header's name is the factory's.
      expect(bundles[module]!.importInputs['shared/http/idempotency.ts'] ?? 0, module).toBe(0);
    }
  });

  it('loads the write path at import in a write route’s function and never in a read route’s, as Lambda imports each by its handler', () => {
    const dir = assets.get('leads/handlers')!;
    // What the import reads from the asset, as Lambda's runtime imports the file its handler setting names.
    const loadedAtImport = (operationId: string) => {
      const handler = bundledHandler(handlerOf(routes.find((route) => route.operationId === operationId)!));
      const hooks = `import { registerHooks } from 'node:module'; registerHooks({ load(url, context, next) { if (url.startsWith(${JSON.stringify(pathToFileURL(dir).href)})) console.log(url.split('/').pop()); return next(url, context); } });`;
      const { AWS_LAMBDA_MAX_CONCURRENCY: _, ...inherited } = process.env;
      const out = execFileSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(hooks)}`, '--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(join(dir, `${handler.split('.')[0]}.mjs`)).href)});`], { env: { ...inherited, _HANDLER: handler } });
      return out.toString().trim().split('\n');
    };
    const writePathChunk = (files: string[]) => files.filter((file) => /^write-path-[A-Z0-9]{8}\.mjs$/.test(file));
    const read = loadedAtImport('getLead');
    expect(read).toContain('handlers.mjs');
    expect(writePathChunk(read)).toEqual([]);
    expect(writePathChunk(loadedAtImport('listLeads'))).toEqual([]);
    expect(writePathChunk(loadedAtImport('createLead'))).toHaveLength(1);
    expect(writePathChunk(loadedAtImport('updateLead'))).toHaveLength(1);
  });

  it('loads STS at import in a function the stack admits to the tenant-data role, at the first AssumeRole elsewhere, and never in one that acts for no organization', () => {
    const dir = assets.get('leads/handlers')!;
    const loadedAtImport = (env: Record<string, string>) => {
      const hooks = `import { registerHooks } from 'node:module'; registerHooks({ load(url, context, next) { if (url.startsWith(${JSON.stringify(pathToFileURL(dir).href)})) console.log(url.split('/').pop()); return next(url, context); } });`;
      const { AWS_LAMBDA_MAX_CONCURRENCY: _, ...inherited } = process.env;
      const out = execFileSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(hooks)}`, '--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(join(dir, 'handlers.mjs')).href)});`], { env: { ...inherited, ...env } });
      return out.toString().trim().split('\n').filter((file) => /^sts-[A-Z0-9]{8}\.mjs$/.test(file));
    };
    // The one STS chunk the bundle holds, by name: loading some other chunk of that name's shape would not pass.
    const stsChunk = readdirSync(dir).filter((file) => /^sts-[A-Z0-9]{8}\.mjs$/.test(file));
    expect(stsChunk).toHaveLength(1);
    expect(loadedAtImport({ TENANT_DATA_ROLE_ARN: 'arn:aws:iam::111111111111:role/TenantData' })).toEqual(stsChunk);
    expect(loadedAtImport({})).toEqual([]);
    // The functions that act for no organization carry it only in a chunk their import does not read.
    for (const module of ['stream/record', 'automations/runner-handler', 'sms/inbound', 'webhooks/deliver', 'authorizer']) {
      expect(Object.keys(bundles[module]!.importInputs).filter((input) => input.includes('@aws-sdk/client-sts/')), module).toEqual([]);
    }
  });

  it('creates a lead once for two requests with one Idempotency-Key when run as deployed: the second answers the first’s answer, replayed', async () => {
    const { organizationId } = await createOrganizationWithKey('Replay Co');
    const { handler } = await bundled(handlerOf(routes.find((route) => route.operationId === 'createLead')!));
    const post = () =>
      handler(
        {
          httpMethod: 'POST',
          path: '/v1/leads',
          headers: { 'content-type': 'application/json', 'Idempotency-Key': 'bundle-replay-1' },
          queryStringParameters: null,
          pathParameters: null,
          body: JSON.stringify({ name: 'Ava Chen', email: 'ava@example.com' }),
          requestContext: { requestId: 'r-replay', authorizer: { organizationId, keyId: 'key_bundle', keyName: 'Bundle key' } },
        },
        context,
      );
    const first = await post();
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers?.['idempotent-replayed']).toBeUndefined();
    const second = await post();
    expect(second.statusCode, second.body).toBe(201);
    expect(second.headers?.['idempotent-replayed']).toBe('true');
    expect(JSON.parse(second.body)).toEqual(JSON.parse(first.body));
    // Written as the request's key: the writer's stamp is on the lead.
    const { dynamo } = await import('#shared/dynamo');
    const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
    const id: string = JSON.parse(first.body).lead.id;
    const { Items = [] } = await dynamo.send(new ScanCommand({ TableName: process.env.TABLE_NAME, FilterExpression: 'entity = :lead AND id = :id', ExpressionAttributeValues: { ':lead': 'LEAD', ':id': id } }));
    expect(Items.map((item) => item.writtenBy?.keyId)).toEqual(['key_bundle']);
  });

  it('list leads from DynamoDB when run as the bundle Lambda receives', async () => {
    const { organizationId } = await createOrganizationWithKey('Bundle Co', { demo: true });
    const { handler } = await bundled(handlerOf(routes.find((route) => route.operationId === 'listLeads')!));
    const response = await handler(
      {
        httpMethod: 'GET',
        path: '/v1/leads',
        headers: {},
        queryStringParameters: { limit: '3' },
        pathParameters: null,
        body: null,
        requestContext: { requestId: 'r1', authorizer: { organizationId } },
      },
      context,
    );
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ totalCount: 9, currentPage: 1, totalPages: 3 });
  });

  it('reads phones as typed when run as deployed: the numbering plans’ chunk loaded from beside the bundle at the first number', async () => {
    const { organizationId } = await createOrganizationWithKey('Phone Co');
    const event = (operationId: string, body: unknown, pathParameters: Record<string, string> | null = null) => apiEvent(organizationId, operationId, '/v1/leads', body, pathParameters);
    // A national form, read in the organization's country (Australia by default).
    const created = await (await bundled(handlerOf(route('createLead')))).handler(event('createLead', { name: 'Ava Chen', phone: '0412 345 678' }), context);
    expect(created.statusCode, created.body).toBe(201);
    expect(JSON.parse(created.body).lead.phone).toBe('+61412345678');
    // The receptionist's caller lookup finds it by another form of the number; one that no plan has is refused.
    const found = await (await bundled(handlerOf(route('lookupCaller')))).handler(event('lookupCaller', null, { phone: '+61 412 345 678' }), context);
    expect(found.statusCode, found.body).toBe(200);
    expect(JSON.parse(found.body).caller.lead.phone).toBe('+61412345678');
    const refused = await (await bundled(handlerOf(route('lookupCaller')))).handler(event('lookupCaller', null, { phone: '+61 1234' }), context);
    expect(refused.statusCode, refused.body).toBe(400);
  });

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s loads and answers an empty request with a JSON envelope, not a crash',
    async (_, route) => {
      // One organization for them all: an empty request reads or writes nothing of it.
      emptyCo ??= createOrganizationWithKey('Empty Co');
      const { organizationId } = await emptyCo;
      const { handler } = await bundled(handlerOf(route));
      const response = await handler(
        { httpMethod: route.method, path: route.path, headers: {}, queryStringParameters: null, pathParameters: null, body: null, requestContext: { requestId: 'r2', authorizer: { organizationId } } },
        context,
      );
      // Starting a recount takes nothing, so an empty request is a valid one: with no queue here, it answers the 503 it
      // documents (the recount could not be queued), an answer, not a crash. Every other route answers below 500.
      if (route.operationId === 'startReportRebuild') expect([response.statusCode, JSON.parse(response.body).error?.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
      else expect(response.statusCode).toBeLessThan(500);
      // A text route answers its text; an error (a missing path parameter) is the JSON envelope on every route.
      if (route.contentType && response.statusCode < 400) expect(response.headers?.['content-type']).toBe(route.contentType);
      else expect(() => JSON.parse(response.body)).not.toThrow();
    },
  );
});
