import { build, type Metafile } from 'esbuild';
import { BUNDLE_ALIASES, BUNDLING } from '../../infra/cdk/bundling';
import { SCHEDULED_JOBS } from '../../infra/schedules';
import { WORKER_HANDLERS } from '../../infra/workers';
import { routes } from '../../functions/resources';
import { AUTHORIZER_HANDLERS } from '../../shared/routes/route';

/** Every Lambda entry point, as the stacks make them: each route's, the authorizers', the workers' and the scheduled jobs'. */
export const FUNCTION_HANDLERS = [
  ...new Set([...routes.map((route) => route.handler), ...Object.values(AUTHORIZER_HANDLERS), ...Object.values(WORKER_HANDLERS), ...SCHEDULED_JOBS.map((job) => job.handler)]),
].sort();

/**
 * Bundles entry points as the stack does (the same esbuild options, one output per entry), into
 * `<outDir>/<entry>.mjs` with its `.map` beside it. Entries are handler names below functions/ unless
 * `entryPoints` maps names to other sources (the benchmark's bare-client baseline); `external` leaves
 * packages out (the benchmark's runtime-SDK variant).
 */
export async function bundleFunctions(
  outDir: string,
  entryPoints: Record<string, string> = Object.fromEntries(FUNCTION_HANDLERS.map((handler) => [handler, `functions/${handler}.ts`])),
  { external = [] }: { external?: string[] } = {},
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
    alias: { ...BUNDLE_ALIASES },
    external,
    banner: { js: BUNDLING.banner },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'silent',
  });
  return metafile;
}
