import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TOOLING_FOLDERS } from '../infra/local/install-tooling';
import config from '../vitest.config';

/** A person who wants the API runs `npm ci` and `npm start`: what that installs is held below this many packages. */
// 720 since the console: the passkey verifier (@simplewebauthn/server, its ASN.1 and CBOR readers) and the console's build inputs;
// 730 since push notices: web-push (its ECE encryption, JWT signing and ASN.1 reader), 7 packages on every platform.
const ROOT_INSTALL_LIMIT = 730;

interface LockEntry {
  hasInstallScript?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
}
const lockOf = (folder: string) => JSON.parse(readFileSync(`${folder}/package-lock.json`, 'utf8')) as { packages: Record<string, LockEntry> };

/** Where developers and CI install, as npm reads a package's `os`, `cpu` and `libc` (a `!` entry refuses that value). */
const PLATFORMS = [
  { os: 'linux', cpu: 'x64', libc: 'glibc' },
  { os: 'linux', cpu: 'arm64', libc: 'glibc' },
  { os: 'linux', cpu: 'x64', libc: 'musl' },
  { os: 'darwin', cpu: 'arm64', libc: undefined },
  { os: 'darwin', cpu: 'x64', libc: undefined },
  { os: 'win32', cpu: 'x64', libc: undefined },
];
const allows = (list: string[] | undefined, value: string | undefined) =>
  !list || value === undefined || (!list.includes(`!${value}`) && (list.every((entry) => entry.startsWith('!')) || list.includes(value)));

/** The packages `npm ci` at the root installs on a platform, as its "added N packages" counts them (workspace links too). */
const rootInstall = (platform: (typeof PLATFORMS)[number]) =>
  Object.entries(lockOf('.').packages).filter(
    ([path, entry]) => path !== '' && allows(entry.os, platform.os) && allows(entry.cpu, platform.cpu) && allows(entry.libc, platform.libc),
  );

describe('the root install (npm ci), what a user of the API installs', () => {
  it(`installs at most ${ROOT_INSTALL_LIMIT} packages on every platform`, () => {
    for (const platform of PLATFORMS) expect(rootInstall(platform).length, `${platform.os} ${platform.cpu}`).toBeLessThanOrEqual(ROOT_INSTALL_LIMIT);
  });

  it('leaves the integrations’, the typed client’s and mutation testing’s tooling to their own lockfiles', () => {
    // One workspace, the console's, whose dependencies are its app's alone: no tooling reaches the root install by it.
    const { workspaces } = JSON.parse(readFileSync('package.json', 'utf8')) as { workspaces?: unknown };
    expect(workspaces).toEqual(['console']);
    const consolePackage = JSON.parse(readFileSync('console/package.json', 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: unknown };
    expect([Object.keys(consolePackage.dependencies ?? {}).sort(), consolePackage.devDependencies]).toEqual([['@simplewebauthn/browser', 'chart.js', 'openapi-fetch', 'preact'], undefined]);
    for (const folder of [...TOOLING_FOLDERS, 'test/mutation']) {
      expect(existsSync(`${folder}/package-lock.json`), folder).toBe(true);
      expect(Object.keys(lockOf('.').packages).filter((path) => path.startsWith(`${folder}/`))).toEqual([]);
    }
  });

  // As the root's package.json does (test/readme.test.ts), so that `npm run integrations:install` warns about none either.
  it('declines, in each folder of its own, every install script its lockfile has', () => {
    for (const folder of [...TOOLING_FOLDERS, 'test/mutation']) {
      const { allowScripts = {} } = JSON.parse(readFileSync(`${folder}/package.json`, 'utf8')) as { allowScripts?: Record<string, boolean> };
      const withScripts = Object.entries(lockOf(folder).packages).flatMap(([path, entry]) => (entry.hasInstallScript ? [path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)] : []));
      expect(Object.keys(allowScripts).sort(), folder).toEqual([...new Set(withScripts)].sort());
      expect(Object.values(allowScripts).every((allowed) => allowed === false), folder).toBe(true);
    }
  });

  it('installs, before npm test, each folder of its own that holds tests the suite runs', () => {
    const bases = (config.test?.include ?? []).map((pattern) => pattern.slice(0, pattern.indexOf('/**')));
    // A folder with a package.json of its own at or above an included test folder: its tests need its install.
    const own = bases.flatMap((base) => base.split('/').map((_, at, parts) => parts.slice(0, at + 1).join('/'))).filter((folder) => existsSync(`${folder}/package.json`));
    expect(own.length).toBeGreaterThan(0);
    // The console's is the root's workspace: npm ci installs it.
    const { workspaces = [] } = JSON.parse(readFileSync('package.json', 'utf8')) as { workspaces?: string[] };
    expect(own.filter((folder) => !(TOOLING_FOLDERS as readonly string[]).includes(folder) && !workspaces.includes(folder))).toEqual([]);
    expect((JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.test).toMatch(/^npm run integrations:install && /);
  });
});
