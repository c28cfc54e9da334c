import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DockerImage, type BundlingOptions, type ILocalBundling } from 'aws-cdk-lib';
import { buildSync, type BuildOptions } from 'esbuild';
import { AUTHORIZER_HANDLERS, routes, SCHEDULED_JOBS, WORKERS } from '../../functions/resources';
import { handlerOf, parseHandler } from '#shared/routes/route';
import { readAsset } from '#shared/http/assets';
import { rendererNameOf } from '#shared/openapi/reference-renderer';
import { REFERENCE_RENDERER } from '#shared/openapi/schemas';
import { packTools } from '../../functions/mcp/built-tools';
import { toolsFromDocument } from '../../functions/mcp/document-tools';

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
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'silent',
  };
}

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

const moduleBundles = new Set<string>();
/**
 * Every function module bundled by one esbuild run, the first time a stack asks for one: 26 modules in one run take
 * about 2.5 s, where esbuild once per module made `cdk synth` take 36–45 s (now about 15 s). Built beside the asset
 * being staged, in the cloud assembly, so the source maps name sources relative to the project, wherever it is checked
 * out (a map is part of its asset's hash); removed when the process exits, when CDK has copied what it deploys.
 */
function bundledModules(stagingDir: string): string {
  const outdir = join(dirname(stagingDir), 'function-bundles');
  if (!moduleBundles.has(outdir)) {
    rmSync(outdir, { recursive: true, force: true });
    process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
    // Warnings shown, as a synth showed them before.
    buildSync({ ...bundleOptions(functionEntryPoints(), outdir), logLevel: 'warning' });
    moduleBundles.add(outdir);
  }
  return outdir;
}

/**
 * CDK bundling for a function of `module`: its bundle and source map from the one build, and the files below
 * node_modules it reads at run time beside them. Bundling runs only for the stacks a command deploys or synthesizes,
 * as with any asset; a module the build does not know fails the synth.
 */
export function moduleBundling(module: string, assets: readonly string[] = []): BundlingOptions {
  const local: ILocalBundling & { module: string; assets: readonly string[] } = {
    // Both are part of the asset's cache key: functions share an asset only when both match.
    module,
    assets,
    tryBundle(outputDir) {
      const built = join(bundledModules(outputDir), `${module}.mjs`);
      if (!existsSync(built)) throw new Error(`No bundle for the function module ${module}: it is not in FUNCTION_MODULES (infra/cdk/bundling.ts)`);
      for (const file of [built, `${built}.map`, ...assets.map((asset) => join(projectRoot, 'node_modules', asset))]) copyFileSync(file, join(outputDir, basename(file)));
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
