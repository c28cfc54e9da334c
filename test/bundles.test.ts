import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, parse, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createOrganizationWithKey } from '../infra/demo/organization';
import { routes } from '../functions/resources';
import { DockerImage } from 'aws-cdk-lib';
import { bundledHandler, FUNCTION_HANDLERS, FUNCTION_MODULES, moduleBundling } from '../infra/cdk/bundling';
import { bundleBudget, bundleFunctions, ENCRYPTION_SDK_MODULES } from './support/bundles';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { startReceiver } from './support/receiver';
import { handlerOf, parseHandler } from '#shared/routes/route';
import { referenceRenderer } from '#shared/openapi/reference-renderer';
import { packTools } from '../functions/mcp/built-tools';
import { toolsFromDocument } from '../functions/mcp/document-tools';
import { asTool } from '../functions/mcp/server';

const outDir = mkdtempSync(join(tmpdir(), 'bundles-'));
// As the stack sets it on every route's function: the bundles run as in Lambda, with no local server to name the API.
process.env.PUBLIC_BASE_URL = 'https://api.example.com';

let outputs: Record<string, { bytes: number; inputs: Record<string, unknown>; exports: string[] }> = {};

/** Bundles every handler module as the stack does (one esbuild run, one output per module). */
beforeAll(async () => {
  outputs = (await bundleFunctions(outDir)).outputs;
});
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** Loads the bundle, not the source. */
async function bundled(handlerName: string) {
  const { module, exportName } = parseHandler(handlerName);
  const exports = (await import(pathToFileURL(join(outDir, `${module}.mjs`)).href)) as Record<string, (event: unknown, context: unknown) => Promise<{ statusCode: number; headers?: Record<string, string>; body: string }>>;
  return { handler: exports[exportName]! };
}

const context = { awsRequestId: 'bundle-test', getRemainingTimeInMillis: () => 10_000 };

describe('the bundled functions', () => {
  it.each(FUNCTION_MODULES.map((module) => [module, bundleBudget(module) / 1024]))('%s stays within %i KB', (module) => {
    const output = Object.entries(outputs).find(([file]) => file.endsWith(`/${module}.mjs`));
    expect(output, `no bundle for ${module}`).toBeDefined();
    expect(output![1].bytes).toBeLessThanOrEqual(bundleBudget(module));
  });

  it('deploys each function from its module’s bundle as built here: the stack’s bundler copies the file its handler names, with its map and assets', () => {
    // Staged as CDK stages an asset: in a directory of the cloud assembly, which lies in the project (cdk.out).
    mkdirSync('test-results', { recursive: true });
    const assembly = mkdtempSync(join('test-results', 'assembly-'));
    onTestFinished(() => rmSync(assembly, { recursive: true, force: true }));
    const staged = (handler: string, assets: string[] = []) => {
      const dir = mkdtempSync(join(assembly, 'asset-'));
      moduleBundling(parseHandler(handler).module, assets).local!.tryBundle(dir, { image: DockerImage.fromRegistry('scratch') });
      return dir;
    };
    for (const handler of FUNCTION_HANDLERS) {
      const { module, exportName } = parseHandler(handler);
      // The function's handler setting names the staged file and an export of it.
      const [file, exported] = bundledHandler(handler).split('.');
      const dir = staged(handler);
      expect(readdirSync(dir).sort(), handler).toEqual([`${file}.mjs`, `${file}.mjs.map`]);
      // Byte for byte the bundle this file measures and runs.
      expect(readFileSync(join(dir, `${file}.mjs`)).equals(readFileSync(join(outDir, `${module}.mjs`))), handler).toBe(true);
      const output = Object.entries(outputs).find(([path]) => path.endsWith(`/${module}.mjs`))![1];
      expect(output.exports, handler).toContain(exported);
      expect(exported, handler).toBe(exportName);
      // Its source map never names where the project is checked out: the map is part of the asset's hash, which must
      // be the same in every checkout.
      const sources = JSON.parse(readFileSync(join(dir, `${file}.mjs.map`), 'utf8')).sources as string[];
      const checkout = relative(parse(process.cwd()).root, process.cwd());
      expect(sources, handler).toContain(relative(join(assembly, 'function-bundles', dirname(module)), `functions/${module}.ts`));
      expect(sources.filter((source) => isAbsolute(source) || source.includes(checkout)), handler).toEqual([]);
    }
    const script = routes.find((route) => route.assets?.length)!;
    expect(readdirSync(staged(handlerOf(script), [...script.assets!])).sort()).toEqual(['handlers.mjs', 'handlers.mjs.map', ...script.assets!.map((asset) => basename(asset))].sort());
    // CDK stages an asset once per distinct bundling settings (their JSON): a module, or its assets, must never share another's.
    const settings = [...FUNCTION_MODULES.map((module) => moduleBundling(module)), moduleBundling(parseHandler(handlerOf(script)).module, [...script.assets!])];
    expect(new Set(settings.map((options) => JSON.stringify(options))).size).toBe(FUNCTION_MODULES.length + 1);
  });

  it('names the reference page’s renderer from build time: the page’s function ships no script and hashes none', async () => {
    const { handler } = await bundled(handlerOf(routes.find((route) => route.operationId === 'getApiReference')!));
    const page = await handler({ httpMethod: 'GET', path: '/docs', headers: {}, requestContext: { path: '/docs' } }, context);
    const name = referenceRenderer().name;
    expect(page.body).toContain(`/docs/${name}`);
    // The name is in the bundle as text, put there by the bundler; only the script's own route copies the file.
    expect(readFileSync(join(outDir, 'meta/handlers.mjs'), 'utf8')).toContain(JSON.stringify(name));
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
    const [, mcp] = Object.entries(outputs).find(([file]) => file.endsWith('/mcp/handlers.mjs'))!;
    expect(Object.keys(mcp.inputs).filter((input) => input.startsWith('functions/') && !input.startsWith('functions/mcp/'))).toEqual([]);
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
    // It also checks OAuth tokens: their lookup by hash, the grant and the key (functions/oauth's, no route of it).
    const owned = {
      authorizer: ['functions/authorizer.ts', 'functions/oauth/authorize-token.ts', 'functions/oauth/entity.ts', 'functions/oauth/metadata.ts', 'functions/oauth/secrets.ts', 'functions/organization/counter-shards.ts', 'functions/organization/entity.ts'],
      'inbound-endpoints/authorizer': ['functions/inbound-endpoints/', 'functions/organization/counter-shards'],
    };
    for (const [module, own] of Object.entries(owned)) {
      const [, bundle] = Object.entries(outputs).find(([file]) => file.endsWith(`/${module}.mjs`))!;
      const ours = Object.keys(bundle.inputs).filter((input) => input.startsWith('functions/'));
      expect(ours.filter((input) => !own.some((prefix) => input.startsWith(prefix))), module).toEqual([]);
      expect(ours.filter((input) => input.endsWith('/routes.ts')), module).toEqual([]);
    }
    // The API key's authorizer, exactly: its handler, the counterShards read and the organization's key.
    const [, authorizer] = Object.entries(outputs).find(([file]) => file.endsWith('/authorizer.mjs') && !file.includes('inbound-endpoints'))!;
    expect(Object.keys(authorizer.inputs).filter((input) => input.startsWith('functions/')).sort()).toEqual(owned.authorizer);
  });

  it('carries the EventBridge Scheduler client in the automation step runner’s bundle alone: only it makes and deletes schedules', () => {
    const withScheduler = Object.entries(outputs).filter(([, output]) => Object.keys(output.inputs).some((input) => input.includes('node_modules/@aws-sdk/client-scheduler/')));
    expect(withScheduler.map(([file]) => relative(outDir, file).replace(/\.mjs$/, ''))).toEqual(['automations/runner-handler']);
  });

  it('carries the AWS Encryption SDK in the bundles of the functions that seal or open secrets alone, without its signatures or branch key store', () => {
    const withSdk = Object.entries(outputs).filter(([, output]) => Object.keys(output.inputs).some((input) => input.includes('node_modules/@aws-crypto/')));
    expect(withSdk.map(([file]) => relative(outDir, file).replace(/\.mjs$/, '')).sort()).toEqual(ENCRYPTION_SDK_MODULES);
    for (const [file, output] of withSdk) {
      expect(Object.keys(output.inputs).filter((input) => /node_modules\/(asn1\.js|@aws-crypto\/branch-keystore-node)\//.test(input)), file).toEqual([]);
    }
  });

  it('seals a new webhook’s secret and opens it to sign a test event, as the bundles run in Lambda', async () => {
    const { organizationId } = await createOrganizationWithKey('Sealing Co');
    const receiver = await startReceiver();
    onTestFinished(() => receiver.close());
    const request = (operationId: string, body: unknown, pathParameters: Record<string, string> | null = null) => ({
      httpMethod: 'POST',
      path: '/v1/webhooks',
      headers: { 'content-type': 'application/json' },
      queryStringParameters: null,
      pathParameters,
      body: body === null ? null : JSON.stringify(body),
      requestContext: { requestId: `r-${operationId}`, authorizer: { organizationId } },
    });
    const route = (operationId: string) => routes.find((candidate) => candidate.operationId === operationId)!;
    const created = await (await bundled(handlerOf(route('createWebhook')))).handler(request('createWebhook', { url: receiver.url, events: ['lead.created'] }), context);
    expect(created.statusCode).toBe(201);
    const { id, secret } = JSON.parse(created.body).webhook as { id: string; secret: string };
    const tested = await (await bundled(handlerOf(route('testWebhook')))).handler(request('testWebhook', null, { webhookId: id }), context);
    expect(JSON.parse(tested.body).attempt.status).toBe('SUCCEEDED');
    const [delivery] = await receiver.waitFor(1);
    expect(new StandardWebhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });
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

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s loads and answers an empty request with a JSON envelope, not a crash',
    async (_, route) => {
      const { organizationId } = await createOrganizationWithKey('Empty Co');
      const { handler } = await bundled(handlerOf(route));
      const response = await handler(
        { httpMethod: route.method, path: route.path, headers: {}, queryStringParameters: null, pathParameters: null, body: null, requestContext: { requestId: 'r2', authorizer: { organizationId } } },
        context,
      );
      expect(response.statusCode).toBeLessThan(500);
      // A text route answers its text; an error (a missing path parameter) is the JSON envelope on every route.
      if (route.contentType && response.statusCode < 400) expect(response.headers?.['content-type']).toBe(route.contentType);
      else expect(() => JSON.parse(response.body)).not.toThrow();
    },
  );
});
