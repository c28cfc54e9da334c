import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The folders with tooling of their own, each installed from its own lockfile so that the root `npm ci` installs only
 * the API: the n8n node's build, lint and engine, the Zapier app's platform, and the typed client's generator.
 * `npm run integrations:install` installs these; `npm test` runs it first, as their tests are part of it.
 * `npm run mutate` names its own folder, test/mutation (StrykerJS), which no test needs.
 */
export const TOOLING_FOLDERS = ['integrations/n8n', 'integrations/zapier', 'examples/client'] as const;

/** A folder needs `npm ci` until its install is newer than its lockfile: npm ci writes node_modules/.package-lock.json last. */
export function needsInstall(folder: string): boolean {
  const installed = join(ROOT, folder, 'node_modules', '.package-lock.json');
  return !existsSync(installed) || statSync(installed).mtimeMs < statSync(join(ROOT, folder, 'package-lock.json')).mtimeMs;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const named = process.argv.slice(2);
  for (const folder of named.length > 0 ? named : TOOLING_FOLDERS) {
    if (!needsInstall(folder)) continue;
    console.log(`Installing ${folder} from its own package-lock.json`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: join(ROOT, folder), stdio: 'inherit' });
  }
}
