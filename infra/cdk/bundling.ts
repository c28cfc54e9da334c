import { copyFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { DockerImage, type BundlingOptions, type ILocalBundling } from 'aws-cdk-lib';
import { buildSync, type BuildOptions, type Metafile } from 'esbuild';
import { AUTHORIZER_HANDLERS, routes, SCHEDULED_JOBS, WORKERS } from '../../functions/resources';
import { handlerOf, parseHandler, routeWrites } from '#shared/routes/route';
import { readAsset } from '#shared/http/assets';
import { rendererNameOf } from '#shared/openapi/reference-renderer';
import { REFERENCE_RENDERER } from '#shared/openapi/schemas';
import { packTools } from '../../functions/mcp/built-tools';
import { toolsFromDocument } from '../../functions/mcp/document-tools';
import minMetadata from 'libphonenumber-js/min/metadata';
import { withoutFormats } from '#shared/phone-metadata';

/**
 * Module substitutions for the Lambda bundles: the credential chain of a Lambda function is its environment, no
 * function validates JSON Schema at run time (infra/cdk/no-json-schema-validator.ts), and the Encryption SDK's
 * signatures and branch key store are never run (infra/cdk/encryption-sdk-unused.ts).
 */
export const BUNDLE_ALIASES = {
  '@aws-sdk/credential-provider-node': fileURLToPath(new URL('../../shared/aws/lambda-credentials.ts', import.meta.url)),
  ajv: fileURLToPath(new URL('./no-json-schema-validator.ts', import.meta.url)),
  'ajv-formats': fileURLToPath(new URL('./no-json-schema-validator.ts', import.meta.url)),
  'asn1.js': fileURLToPath(new URL('./encryption-sdk-unused.ts', import.meta.url)),
  '@aws-crypto/branch-keystore-node': fileURLToPath(new URL('./encryption-sdk-unused.ts', import.meta.url)),
} as const;

/**
 * How every function is bundled: esbuild, ESM for Node.js 24, minified, and the AWS SDK bundled in
 * (tree-shaken) rather than taken from the runtime, so the code that runs is the code that was tested.
 * Source maps are written beside each bundle but not loaded at run time (no --enable-source-maps): loading
 * them cost 8 to 60 ms per cold start (docs/performance.md); a logged stack is mapped back offline.
 * `external` leaves packages out and `alias` resolves packages to other modules, for the benchmark's variants.
 */
export function bundleOptions(
  entryPoints: Record<string, string>,
  outdir: string,
  { external = [], alias = {} }: { external?: string[]; alias?: Record<string, string> } = {},
): BuildOptions & { metafile: true } {
  return {
    entryPoints,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    minify: true,
    sourcemap: true,
    mainFields: ['module', 'main'],
    alias: { ...BUNDLE_ALIASES, ...alias },
    external,
    // Some bundled CommonJS dependencies still call require().
    banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
    define: {
      // The reference page names its renderer by the hash of the file the script's function is built beside.
      REFERENCE_RENDERER_BUILT_NAME: JSON.stringify(rendererNameOf(readAsset(REFERENCE_RENDERER))),
      // The MCP function's tools, built from the document here rather than in the function (functions/mcp/built-tools.ts).
      MCP_TOOLS_BUILT: JSON.stringify(packTools(toolsFromDocument())),
      // The numbering plans the phone-reading functions load at their first number, without their formats (shared/phone-plans.ts).
      PHONE_PLANS_BUILT: JSON.stringify(JSON.stringify(withoutFormats(minMetadata))),
      // The write routes' handlers, whose functions load the handler factory's write path at import (shared/http/api-handler.ts).
      WRITE_HANDLERS_BUILT: JSON.stringify(WRITE_HANDLERS),
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'silent',
  };
}

/** The export names of the handlers of the routes that write (`createLeadHandler`). */
const WRITE_HANDLERS = [...new Set(routes.filter(routeWrites).map((route) => parseHandler(handlerOf(route)).exportName))].sort();

/** Handlers only an opt-in stack deploys (`-c analytics=true`): named here so their modules are bundled too. */
export const OPT_IN_HANDLERS = { analyticsExport: 'reports/export#handler' } as const;

/** Every Lambda function's handler, as the stacks make them: each route's, the authorizers', the workers', the scheduled jobs' and the opt-in stacks'. */
export const FUNCTION_HANDLERS = [
  ...new Set([...routes.map(handlerOf), ...Object.values(AUTHORIZER_HANDLERS), ...WORKERS.map((worker) => worker.handler), ...SCHEDULED_JOBS.map((job) => job.handler), ...Object.values(OPT_IN_HANDLERS)]),
].sort();

/** The modules those handlers are exported from: one bundle each, which every function of the module deploys. */
export const FUNCTION_MODULES = [...new Set(FUNCTION_HANDLERS.map((handler) => parseHandler(handler).module))].sort();

/** Each function module's entry point, named by the module (`leads/handlers` → `functions/leads/handlers.ts`). */
export const functionEntryPoints = (): Record<string, string> =>
  Object.fromEntries(FUNCTION_MODULES.map((module) => [module, fileURLToPath(new URL(`../../functions/${module}.ts`, import.meta.url))]));

/** What a function module's bundle parses at import and what its asset carries besides, from one build's metafile. */
export interface ModuleBundle {
  /** The directory its files are written in: the asset holds them, side by side, as they are there. */
  dir: string;
  /** Its files below `dir`, the entry (the file its handler names) first, then the chunks it loads, at import or with `import()`; each has its `.map`. */
  files: string[];
  /** Bytes its import parses: the entry and the chunks it imports statically. */
  importBytes: number;
  /** What each source put in the files its import parses (`inputs` of esbuild's metafile, by source). */
  importInputs: Record<string, number>;
  /** The same for every file of the asset: what import() loads too. */
  inputs: Record<string, number>;
  /** Its exports (the handlers). */
  exports: string[];
}

/**
 * Code a function loads with `import()` that is worth a chunk of its own: a module whose `import()` reaches more than
 * this is built again with esbuild's splitting, alone, so that code is parsed at its first use rather than at import.
 */
export const LAZY_CHUNK_BYTES = 16 * 1024;

/**
 * What one more file costs an import, in bytes of a bundle: reading, compiling and linking a module apart. Measured on
 * the stream consumer, whose split bundle parsed 62 KB less in 22 files and imported no faster (1.88× against 1.91×
 * the bare client, CPU time, 15 rounds): about 3 KB a file. A split bundle is kept only when it parses less than its
 * single file by more than this per extra file its import reads.
 */
export const FILE_COST_BYTES = 4 * 1024;

/** Sources reached from an entry through static imports only, in a metafile's import graph. */
function staticallyReached(metafile: Metafile, entry: string): Set<string> {
  const reached = new Set<string>();
  const visit = (input: string) => {
    if (reached.has(input) || !metafile.inputs[input]) return;
    reached.add(input);
    for (const record of metafile.inputs[input]!.imports) if (record.kind !== 'dynamic-import' && !record.external) visit(record.path);
  };
  visit(entry);
  return reached;
}

/** Bytes an output holds from each source. */
const inputBytes = (outputs: Metafile['outputs'][string][]): Record<string, number> => {
  const bytes: Record<string, number> = {};
  for (const output of outputs) for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) if (bytesInOutput > 0) bytes[input] = (bytes[input] ?? 0) + bytesInOutput;
  return bytes;
};

/** The outputs a bundle's entry loads, statically or also with `import()`, by path as the metafile names them. */
function outputsReached(metafile: Metafile, entryOutput: string, { lazy }: { lazy: boolean }): string[] {
  const reached: string[] = [];
  const visit = (output: string) => {
    if (reached.includes(output) || !metafile.outputs[output]) return;
    reached.push(output);
    for (const record of metafile.outputs[output]!.imports) if (!record.external && (lazy || record.kind !== 'dynamic-import')) visit(record.path);
  };
  visit(entryOutput);
  return reached;
}

/** A module's bundle as one build wrote it, its entry output named. */
function moduleBundle(metafile: Metafile, entryOutput: string): ModuleBundle {
  const dir = dirname(resolve(entryOutput));
  const all = outputsReached(metafile, entryOutput, { lazy: true });
  const atImport = outputsReached(metafile, entryOutput, { lazy: false });
  return {
    dir,
    files: all.map((output) => relative(dir, resolve(output))),
    importBytes: atImport.reduce((sum, output) => sum + metafile.outputs[output]!.bytes, 0),
    importInputs: inputBytes(atImport.map((output) => metafile.outputs[output]!)),
    inputs: inputBytes(all.map((output) => metafile.outputs[output]!)),
    exports: metafile.outputs[entryOutput]!.exports,
  };
}

/**
 * esbuild runs side by side, waited for synchronously (CDK stages an asset synchronously): the async API in a worker
 * thread, this thread blocked on an Atomics wait until it answers. Answers each run's metafile outputs.
 */
function buildAllSync(runs: BuildOptions[]): Metafile['outputs'][] {
  if (runs.length === 0) return [];
  const done = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
    const { build } = require(workerData.esbuild);
    Promise.all(workerData.runs.map((options) => build(options)))
      .then((results) => workerData.port.postMessage({ outputs: results.map((result) => result.metafile.outputs) }), (error) => workerData.port.postMessage({ error: String(error && error.stack || error) }))
      .finally(() => { Atomics.store(workerData.done, 0, 1); Atomics.notify(workerData.done, 0); });`,
    { eval: true, workerData: { esbuild: createRequire(import.meta.url).resolve('esbuild'), runs, done, port: port2 }, transferList: [port2] },
  );
  try {
    Atomics.wait(done, 0, 0);
    const answer = receiveMessageOnPort(port1)?.message as { outputs?: Metafile['outputs'][]; error?: string } | undefined;
    if (!answer?.outputs) throw new Error(`Bundling failed: ${answer?.error ?? 'no answer'}`);
    return answer.outputs;
  } finally {
    void worker.terminate();
    port1.close();
  }
}

/**
 * Bundles entry points (handler modules by default) as the stack deploys them, into `outdir`, and says what each
 * bundle's asset holds. One esbuild run bundles them all, one output per entry (`<outdir>/<name>.mjs`), each tree-shaken
 * to what its own handlers reach; esbuild inlines what a module loads with `import()` there. An entry whose `import()`
 * reaches more than LAZY_CHUNK_BYTES is then bundled again, alone, with splitting (`<outdir>/split/<name>/`), so that
 * code sits in chunk files parsed only when first loaded (the Encryption SDK at a function's first secret, the OpenAPI
 * document, Powertools Metrics in the authorizers), unless the chunks its import reads cost more than they save
 * (FILE_COST_BYTES). Alone, because esbuild's splitting places whole source files in chunks by the entries that
 * reach them: in one run for every module, each function would parse what its sources hold for the others (40 to 190
 * KB more each, measured).
 */
export function buildBundles(
  outdir: string,
  entryPoints: Record<string, string> = functionEntryPoints(),
  { external = [], alias = {}, logLevel = 'silent' }: { external?: string[]; alias?: Record<string, string>; logLevel?: 'silent' | 'warning' } = {},
): Record<string, ModuleBundle> {
  const { metafile } = buildSync({ ...bundleOptions(entryPoints, outdir, { external, alias }), logLevel });
  const bundles: Record<string, ModuleBundle> = {};
  const entryOutputOf = (name: string) => Object.keys(metafile.outputs).find((output) => resolve(output) === resolve(outdir, `${name}.mjs`))!;
  const lazyBytesOf = (name: string) => {
    const output = metafile.outputs[entryOutputOf(name)]!;
    const atImport = staticallyReached(metafile, output.entryPoint!);
    return Object.entries(output.inputs).reduce((sum, [input, { bytesInOutput }]) => sum + (atImport.has(input) ? 0 : bytesInOutput), 0);
  };
  const candidates = Object.keys(entryPoints).filter((name) => lazyBytesOf(name) > LAZY_CHUNK_BYTES);
  const splitDirOf = (name: string) => join(outdir, 'split', name);
  // The single-entry runs side by side (one esbuild service, its parsing on every core), waited for here.
  const splits = buildAllSync(candidates.map((name) => ({ ...bundleOptions({ [basename(name)]: entryPoints[name]! }, splitDirOf(name), { external, alias }), splitting: true, chunkNames: '[name]-[hash]', logLevel })));
  for (const name of Object.keys(entryPoints)) {
    const whole = moduleBundle(metafile, entryOutputOf(name));
    const index = candidates.indexOf(name);
    if (index < 0) {
      bundles[name] = whole;
      continue;
    }
    const split = splits[index]!;
    const splitEntry = Object.keys(split).find((file) => resolve(file) === resolve(splitDirOf(name), `${basename(name)}.mjs`))!;
    const splitMetafile = { inputs: {}, outputs: split };
    const chunked = moduleBundle(splitMetafile, splitEntry);
    const filesAtImport = outputsReached(splitMetafile, splitEntry, { lazy: false }).length;
    const kept = chunked.importBytes + (filesAtImport - 1) * FILE_COST_BYTES < whole.importBytes ? chunked : whole;
    bundles[name] = kept;
    // The copy not deployed is removed, so nothing measures or runs it by mistake.
    if (kept === chunked) for (const file of [`${name}.mjs`, `${name}.mjs.map`]) rmSync(join(outdir, file), { force: true });
    else rmSync(splitDirOf(name), { recursive: true, force: true });
  }
  return bundles;
}

const built = new Map<string, Record<string, ModuleBundle>>();
/**
 * Every function module bundled (buildBundles), the first time a stack asks for one: 26 modules in one run took about
 * 2.5 s, where esbuild once per module made `cdk synth` take 36–45 s (now about 15 s); the few built again with
 * splitting, side by side, add about as much again (7.1 s against 3.9 s for the one run on a loaded machine). Built beside the asset being staged, in the cloud assembly, so the source maps name
 * sources relative to the project, wherever it is checked out (a map is part of its asset's hash); removed when the
 * process exits, when CDK has copied what it deploys.
 */
const bundledModules = (stagingDir: string): Record<string, ModuleBundle> => functionBundlesIn(dirname(stagingDir));

/** The one build of every function module that the stack's bundler stages from, in a cloud assembly's directory. */
export function functionBundlesIn(assemblyDir: string): Record<string, ModuleBundle> {
  const outdir = join(assemblyDir, 'function-bundles');
  if (!built.has(outdir)) {
    rmSync(outdir, { recursive: true, force: true });
    process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
    // Warnings shown, as a synth showed them before.
    built.set(outdir, buildBundles(outdir, functionEntryPoints(), { logLevel: 'warning' }));
  }
  return built.get(outdir)!;
}

/**
 * CDK bundling for a function of `module`: its bundle, the chunks it loads and their source maps from the one build,
 * and the files below node_modules it reads at run time beside them. Bundling runs only for the stacks a command
 * deploys or synthesizes, as with any asset; a module the build does not know fails the synth.
 */
export function moduleBundling(module: string, assets: readonly string[] = []): BundlingOptions {
  const local: ILocalBundling & { module: string; assets: readonly string[] } = {
    // Both are part of the asset's cache key: functions share an asset only when both match.
    module,
    assets,
    tryBundle(outputDir) {
      const bundle = bundledModules(outputDir)[module];
      if (!bundle) throw new Error(`No bundle for the function module ${module}: it is not in FUNCTION_MODULES (infra/cdk/bundling.ts)`);
      for (const file of bundle.files.flatMap((file) => [file, `${file}.map`])) copyFileSync(join(bundle.dir, file), join(outputDir, file));
      for (const asset of assets) copyFileSync(join(projectRoot, 'node_modules', asset), join(outputDir, basename(asset)));
      return true;
    },
  };
  // The image is never run: the local bundler above bundles or throws.
  return { image: DockerImage.fromRegistry('scratch'), command: ['bundle', module], local };
}

/** The handler setting of a function: the module's bundle file and the export (`leads/handlers#listLeads` → `handlers.listLeads`). */
export const bundledHandler = (handler: string): string => {
  const { module, exportName } = parseHandler(handler);
  return `${basename(module)}.${exportName}`;
};

/** The directory CDK stages function assets from (it reads nothing there: the bundler above writes the output). */
export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
