import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { beforeAll } from 'vitest';

/**
 * For `npm run mutate` only (test/mutation/mutate.ts sets MUTATE_PRELOAD): the files being mutated are loaded before the first
 * test, the way the local server's first request would load them. A mutant in what runs while a module loads (a
 * module-scope pattern, an arrow function's definition) is then seen by Stryker as static, and every test named is run
 * against it: loaded by a file's first request instead, it would count as reached by that one test only and survive
 * every other test of the file. In a hook, not while this file loads: Stryker's own setup file, which may load after
 * this one, is what switches a static mutant on.
 */
beforeAll(async () => {
  for (const file of (process.env.MUTATE_PRELOAD ?? '').split(',').filter(Boolean)) await import(/* @vite-ignore */ pathToFileURL(resolve(file)).href);
});
