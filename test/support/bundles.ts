import { build, type Metafile } from 'esbuild';
import { BUNDLE_ALIASES, BUNDLING } from '../../infra/cdk/bundling';
import { AUTHORIZER_HANDLERS, routes, SCHEDULED_JOBS, WORKER_HANDLERS } from '../../functions/resources';
import { handlerOf, parseHandler } from '../../shared/routes/route';

/** The budget of one function's bundle: what a cold start downloads, unpacks and parses. */
export const MAX_BUNDLE_BYTES = 420 * 1024;

/** Functions allowed more, each for a reason of its own (none today). */
const BUNDLE_BUDGETS: Record<string, number> = {};

/** A function module's bundle budget. */
export const bundleBudget = (module: string): number => BUNDLE_BUDGETS[module] ?? MAX_BUNDLE_BYTES;

/** Every Lambda function's handler, as the stacks make them: each route's, the authorizers', the workers' and the scheduled jobs'. */
export const FUNCTION_HANDLERS = [
  ...new Set([...routes.map(handlerOf), ...Object.values(AUTHORIZER_HANDLERS), ...Object.values(WORKER_HANDLERS), ...SCHEDULED_JOBS.map((job) => job.handler)]),
].sort();

/** The modules those handlers are exported from: one bundle each, which every function of the module deploys. */
export const FUNCTION_MODULES = [...new Set(FUNCTION_HANDLERS.map((handler) => parseHandler(handler).module))].sort();

/**
 * Bundles entry points as the stack does (the same esbuild options, one output per entry), into
 * `<outDir>/<entry>.mjs` with its `.map` beside it. Entries are handler modules below functions/ unless
 * `entryPoints` maps names to other sources (the benchmark's bare-client baseline); `external` leaves
 * packages out (the benchmark's runtime-SDK variant); `alias` resolves packages to other modules (its floor without
 * Powertools).
 */
export async function bundleFunctions(
  outDir: string,
  entryPoints: Record<string, string> = Object.fromEntries(FUNCTION_MODULES.map((module) => [module, `functions/${module}.ts`])),
  { external = [], alias = {} }: { external?: string[]; alias?: Record<string, string> } = {},
): Promise<Metafile> {
  const { metafile } = await build({
    entryPoints,
    bundle: true,
    platform: 'node',
    target: BUNDLING.target,
    format: 'esm',
    minify: BUNDLING.minify,
    sourcemap: BUNDLING.sourceMap,
    mainFields: [...BUNDLING.mainFields],
    alias: { ...BUNDLE_ALIASES, ...alias },
    external,
    banner: { js: BUNDLING.banner },
    define: { ...BUNDLING.define },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'silent',
  });
  return metafile;
}
