import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * Reads a file a route lists in `assets` (a path below node_modules): in Lambda the stack has copied
 * it beside the bundle; run from source, or from a bundle without it, it comes from the project's
 * node_modules.
 */
export function readAsset(asset: string): string {
  const beside = new URL(basename(asset), import.meta.url);
  return readFileSync(existsSync(beside) ? beside : join(process.cwd(), 'node_modules', asset), 'utf8');
}
