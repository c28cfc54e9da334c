import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FUNCTION_HANDLERS, FUNCTION_MODULES, type ModuleBundle } from '../../infra/cdk/bundling';
import { handlerOf, parseHandler } from '#shared/routes/route';
import { actsForOrganizations, TENANT_ROLE_VARIABLES } from '#shared/tenancy/policies';
import { routes, SCHEDULED_JOBS } from '../../functions/resources';
import { bundleFunctions, entryFileOf, readWith } from '../support/bundles';
import { median } from './timing';

export interface Yardstick {
  bytes: number;
  importMs: number;
  ratio: number;
}

export interface ColdStartFigures {
  baseline: { bytes: number; importMs: number };
  /**
   * The handler factory and the document client around a read route's handler that does nothing (./handler-floor.ts):
   * what a read route's function imports before its own code.
   */
  floor: Yardstick;
  /** The same around a write route's handler (./handler-floor-write.ts), imported as its deployed function is: with its write path. */
  writeFloor: Yardstick;
  /** The same floor with Powertools taken out (./without-powertools.ts): what the rest of the factory costs. */
  floorWithoutPowertools: Yardstick;
  /** The MCP protocol SDK's server and transport alone (./mcp-sdk.ts). */
  mcpSdk: Yardstick;
  /**
   * One row per distinct bundle the stack deploys: a function module's, which each of its functions deploys. `handler`
   * names it for a reader (`leads/handlers (8 functions)`); `bytes` are what its import parses (its entry and the chunks
   * that loads at once, not those it loads with import() at first use).
   */
  functions: { handler: string; module: string; functions: number; bytes: number; importMs: number; ratio: number }[];
  sourceMaps: { handler: string; withoutMs: number; withMs: number }[];
  runtimeSdk: { handler: string; bytes: number; importMs: number; bundledMs: number };
}

/** What a function's module reads at import: configuration that fails loudly when absent. */
const IMPORT_ENV = { TABLE_NAME: 'bench', TABLE_ARN: 'arn:aws:dynamodb:us-east-1:111111111111:table/bench', EXPORT_BUCKET: 'bench-exports', EXPORT_KEY_ARN: 'arn:aws:kms:us-east-1:111111111111:key/bench', AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'bench', AWS_SECRET_ACCESS_KEY: 'bench', CURSOR_SECRET: 'bench-cursor-signing-key' };

/**
 * Milliseconds a fresh Node process takes to import the module: the module part of a cold start. The process
 * first loads what Lambda's Node.js runtime has loaded before it imports a handler: `node:http`, which its
 * Runtime API client requires (aws-lambda-nodejs-runtime-interface-client, src/client/rapid-client.ts). It
 * costs about 45 ms on its own, and @middy/util imports it, so without it the runtime's cost would count as ours.
 */
function importTime(file: string, nodeOptions: string[] = [], env: Record<string, string> = {}): number {
  const script = `await import('node:http'); const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - t);`;
  // As a function starts in Lambda's default runtime: the local server in this process runs requests side by side and
  // says so (AWS_LAMBDA_MAX_CONCURRENCY, infra/local/server.ts), with an invocation store a fresh process does not have.
  const { AWS_LAMBDA_MAX_CONCURRENCY: _, ...inherited } = process.env;
  const out = execFileSync(process.execPath, [...nodeOptions, '--input-type=module', '-e', script], { env: { ...inherited, ...IMPORT_ENV, ...env }, cwd: process.cwd() });
  return Number(out.toString().trim().split('\n').at(-1));
}

const SAMPLED = ['leads/handlers', 'products/handlers', 'inquiries/handlers'];

/** What the functions are read against besides the bare client: the factory's floor, with and without Powertools, and the MCP SDK. */
const YARDSTICKS = ['bench/handler-floor', 'bench/handler-floor-write', 'bench/handler-floor-without-powertools', 'bench/mcp-sdk'];

/**
 * The bundles whose functions act for organizations (a keyed route's, a job that signs as a tenant): the stack gives
 * them the tenant-data role (infra/cdk/tenant-data-role.ts), by which they load STS at import
 * (shared/tenancy/credentials.ts). A module deployed by several functions is imported as its functions that do. The
 * floors are a keyed read and a keyed write route's.
 */
const ACTING_BUNDLES = new Set([
  ...routes.filter(actsForOrganizations).map((route) => parseHandler(handlerOf(route)).module),
  ...SCHEDULED_JOBS.filter((job) => job.signsAsTenant).map((job) => parseHandler(job.handler).module),
  'bench/handler-floor',
  'bench/handler-floor-write',
  'bench/handler-floor-without-powertools',
]);

/**
 * What Lambda sets besides, by bundle: the handler it imports (`_HANDLER`), by which a write route's function loads its
 * write path at import (shared/http/api-handler.ts), and the tenant-data role where the stack gives it (above). The
 * write floor is imported as a write route's function.
 */
const envOf = (name: string): Record<string, string> => ({
  ...(name === 'bench/handler-floor-write' ? { _HANDLER: 'handler-floor-write.createLeadHandler' } : {}),
  ...(ACTING_BUNDLES.has(name) ? { [TENANT_ROLE_VARIABLES.role]: 'arn:aws:iam::111111111111:role/bench' } : {}),
});

/** Every Powertools module the functions import, each resolved to ./without-powertools.ts for the floor without it. */
const POWERTOOLS_MODULES = ['@aws-lambda-powertools/logger', '@aws-lambda-powertools/logger/middleware', '@aws-lambda-powertools/metrics', '@aws-lambda-powertools/metrics/middleware'];

/**
 * The bytes a bundle's function reads at import besides its bundle's static import: the chunks it loads with a top-level
 * `await import()` as deployed (`envOf`), and what those import: a write route's write path (shared/http/write-path.ts),
 * STS where the function acts for organizations (shared/tenancy/sts.ts).
 */
function awaitedAtImportBytes(name: string, bundle: ModuleBundle): number {
  const awaited = [...(name === 'bench/handler-floor-write' ? ['write-path'] : []), ...(ACTING_BUNDLES.has(name) ? ['sts'] : [])];
  const atImport = readWith(bundle.dir, bundle.files[0]!);
  const chunks = bundle.files.filter((file) => awaited.some((chunk) => new RegExp(`^${chunk}-[A-Z0-9]{8}\\.mjs$`).test(file))).flatMap((file) => [...readWith(bundle.dir, file)]);
  return [...new Set(chunks)].filter((file) => !atImport.has(file)).reduce((sum, file) => sum + statSync(join(bundle.dir, file)).size, 0);
}

/** How many functions deploy each module's bundle. */
const functionsOf = (module: string) => FUNCTION_HANDLERS.filter((handler) => parseHandler(handler).module === module).length;

/** A bundle's name in the figures: its module, and how many functions deploy it when more than one. */
const bundleName = (module: string) => (functionsOf(module) > 1 ? `${module} (${functionsOf(module)} functions)` : module);

/**
 * Bundles every function as the stack does, and a bare document-client function the same way; imports each in
 * fresh processes, interleaved with the baseline so both see the same machine.
 */
export async function measureColdStarts({ rounds, progress }: { rounds: number; progress: (line: string) => void }): Promise<ColdStartFigures> {
  const outDir = mkdtempSync(join(process.cwd(), 'node_modules', '.bench-bundles-'));
  try {
    const bundles: Record<string, ModuleBundle> = {
      ...bundleFunctions(outDir),
      ...bundleFunctions(join(outDir, 'yardsticks'), { 'bench/bare-client': 'test/bench/bare-client.ts', 'bench/handler-floor': 'test/bench/handler-floor.ts', 'bench/handler-floor-write': 'test/bench/handler-floor-write.ts', 'bench/mcp-sdk': 'test/bench/mcp-sdk.ts' }),
    };
    const withoutPowertools = fileURLToPath(new URL('./without-powertools.ts', import.meta.url));
    Object.assign(
      bundles,
      bundleFunctions(
        join(outDir, 'without-powertools'),
        { 'bench/handler-floor-without-powertools': 'test/bench/handler-floor.ts' },
        { alias: Object.fromEntries(POWERTOOLS_MODULES.map((module) => [module, withoutPowertools])) },
      ),
    );
    // The runtime-SDK variant must resolve the SDK from node_modules, as Lambda's runtime would provide it.
    const runtimeSdk = bundleFunctions(join(outDir, 'runtime-sdk'), { 'leads/handlers': 'functions/leads/handlers.ts' }, { external: ['@aws-sdk/*', '@smithy/*'] })['leads/handlers']!;
    // A bundle is imported by the file its handler names, which imports the chunks it needs at once.
    const file = (name: string) => entryFileOf(bundles[name]!);
    const samples = new Map<string, number[]>([['bench/bare-client', []], ...YARDSTICKS.map((name) => [name, []] as [string, number[]]), ...FUNCTION_MODULES.map((h) => [h, []] as [string, number[]])]);
    // One unmeasured import each, so every file is read from the same warm page cache as the baseline's.
    for (const name of samples.keys()) importTime(file(name), [], envOf(name));
    // Each import's ratio to the bare client's import next to it: a slow spell of the machine falls on both of a pair.
    const ratios = new Map<string, number[]>([...samples.keys()].map((name) => [name, []]));
    for (let round = 1; round <= rounds; round++) {
      progress(`cold starts: import round ${round} of ${rounds} (${samples.size} bundles)`);
      for (const [name, times] of samples) {
        const measured = importTime(file(name), [], envOf(name));
        times.push(measured);
        // The yardsticks beside every function, so they see the machine as the functions do.
        if (name === 'bench/bare-client' || YARDSTICKS.includes(name)) continue;
        let bareMs = measured;
        for (const yardstick of ['bench/bare-client', ...YARDSTICKS]) {
          const ms = importTime(file(yardstick), [], envOf(yardstick));
          samples.get(yardstick)!.push(ms);
          if (yardstick === 'bench/bare-client') {
            bareMs = ms;
            ratios.get(name)!.push(measured / ms);
          } else ratios.get(yardstick)!.push(ms / bareMs);
        }
      }
    }
    const baselineMs = median(samples.get('bench/bare-client')!);
    // A bundle's ratio is the median of its paired ratios; its import time, the median of its imports.
    const yardstick = (name: string): Yardstick => ({ bytes: bundles[name]!.importBytes + awaitedAtImportBytes(name, bundles[name]!), importMs: median(samples.get(name)!), ratio: median(ratios.get(name)!) });
    const functions = FUNCTION_MODULES.map((module) => ({ handler: bundleName(module), module, functions: functionsOf(module), ...yardstick(module) }));
    progress('cold starts: source maps on and off, bundled and runtime SDK');
    const sourceMaps = SAMPLED.map((handler) => {
      const without: number[] = [];
      const withMaps: number[] = [];
      for (let i = 0; i < rounds * 2; i++) {
        without.push(importTime(file(handler), [], envOf(handler)));
        withMaps.push(importTime(file(handler), ['--enable-source-maps'], envOf(handler)));
      }
      return { handler, withoutMs: median(without), withMs: median(withMaps) };
    });
    const runtime: number[] = [];
    const bundled: number[] = [];
    for (let i = 0; i < rounds * 2; i++) {
      runtime.push(importTime(entryFileOf(runtimeSdk), [], envOf('leads/handlers')));
      bundled.push(importTime(file('leads/handlers'), [], envOf('leads/handlers')));
    }
    return {
      baseline: { bytes: bundles['bench/bare-client']!.importBytes, importMs: baselineMs },
      floor: yardstick('bench/handler-floor'),
      writeFloor: yardstick('bench/handler-floor-write'),
      floorWithoutPowertools: yardstick('bench/handler-floor-without-powertools'),
      mcpSdk: yardstick('bench/mcp-sdk'),
      functions,
      sourceMaps,
      runtimeSdk: { handler: 'leads/handlers', bytes: runtimeSdk.importBytes, importMs: median(runtime), bundledMs: median(bundled) },
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
