import { build, type Metafile } from 'esbuild';
import { bundleOptions, functionEntryPoints } from '../../infra/cdk/bundling';

/** The budget of one function's bundle: what a cold start downloads, unpacks and parses. */
export const MAX_BUNDLE_BYTES = 420 * 1024;

/** Functions allowed more, each for a reason of its own (none today). */
const BUNDLE_BUDGETS: Record<string, number> = {};

/** A function module's bundle budget. */
export const bundleBudget = (module: string): number => BUNDLE_BUDGETS[module] ?? MAX_BUNDLE_BYTES;

/**
 * Bundles entry points as the stack does (the same esbuild options, one output per entry), into
 * `<outDir>/<entry>.mjs` with its `.map` beside it. Entries are handler modules below functions/ unless
 * `entryPoints` maps names to other sources (the benchmark's bare-client baseline); `external` leaves
 * packages out (the benchmark's runtime-SDK variant); `alias` resolves packages to other modules (its floor without
 * Powertools).
 */
export async function bundleFunctions(
  outDir: string,
  entryPoints: Record<string, string> = functionEntryPoints(),
  { external = [], alias = {} }: { external?: string[]; alias?: Record<string, string> } = {},
): Promise<Metafile> {
  const { metafile } = await build(bundleOptions(entryPoints, outDir, { external, alias }));
  return metafile;
}
