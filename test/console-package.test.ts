import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_PATH } from '../functions/sign-in/site';
import { CONSOLE_BASE } from '../console/src/base';
import { TAKES_IDEMPOTENCY_KEY } from '../console/src/api-lists';
import { routes } from '../functions/resources';
import { honoursIdempotencyKey } from '#shared/openapi/responses';

/**
 * The owners' console is a browser's program of its own (console/: its package and tsconfig, the DOM's types and no
 * Node's), and the server's program (functions/, shared/, infra/, test/) sees no DOM. Neither imports the other: the
 * console reaches the API by its document's types alone (console/src/api-schema.d.ts), and the server's tooling builds
 * it from outside (infra/console/build.ts, which reads its base path).
 */
const ROOT = resolve(import.meta.dirname, '..');
const TSC = join(ROOT, 'node_modules', '.bin', 'tsc');

/** The files below `dir` (node_modules aside) whose names end with one of `extensions`, relative to the root. */
function filesBelow(dir: string, extensions: readonly string[]): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && extensions.some((extension) => entry.name.endsWith(extension)))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((path) => !path.split('/').includes('node_modules'));
}

/** What a module imports (static, dynamic and type imports), as written. */
const importsOf = (path: string) => [...readFileSync(join(ROOT, path), 'utf8').matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((match) => match[1]!);

/** tsc's diagnostics for one file, compiled with a program's own settings (a tsconfig extending it, in a folder beside it). */
function compileWith(project: 'server' | 'console', source: string): string {
  const base = project === 'server' ? ROOT : join(ROOT, 'console');
  const dir = mkdtempSync(join(base, '.typecheck-'));
  try {
    writeFileSync(join(dir, 'probe.ts'), source);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.json', include: ['probe.ts'], compilerOptions: { noUnusedLocals: false } }));
    try {
      execFileSync(TSC, ['-p', dir], { encoding: 'utf8', stdio: 'pipe' });
      return '';
    } catch (error) {
      return String((error as { stdout?: string }).stdout);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the console’s package', () => {
  it('is a browser’s program: a server file that uses the DOM does not compile, nor a console file that uses Node', () => {
    // (localStorage is Node's too since Node 22, declared by its types: the page's own globals are the DOM's.)
    expect(compileWith('server', 'export const title = document.title;\n')).toContain("Cannot find name 'document'");
    expect(compileWith('server', "export const page = window.location.href;\n")).toContain("Cannot find name 'window'");
    expect(compileWith('console', 'export const home = process.env.HOME;\n')).toContain("Cannot find name 'process'");
    // The near miss: each compiles what is its own.
    expect(compileWith('console', 'export const title = document.title;\n')).toBe('');
    expect(compileWith('server', 'export const home = process.env.HOME;\n')).toBe('');
  });

  it('imports nothing outside itself but its own dependencies, and the server imports nothing of it', () => {
    const dependencies = Object.keys((JSON.parse(readFileSync(join(ROOT, 'console', 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
    const consoleFiles = filesBelow('console/src', ['.ts', '.tsx']);
    // The scan reaches the app's entry, its door and its screens.
    expect(consoleFiles).toEqual(expect.arrayContaining(['console/src/main.tsx', 'console/src/api.ts', 'console/src/screens/today.tsx', 'console/src/settings/settings.tsx']));
    const outside = consoleFiles.flatMap((path) =>
      importsOf(path)
        // Its unit tests also import the root's test runner.
        .filter((imported) => !(path.endsWith('.test.ts') && imported === 'vitest'))
        .filter((imported) => (imported.startsWith('.') ? !resolve(ROOT, path, '..', imported).startsWith(join(ROOT, 'console', 'src')) : !dependencies.some((name) => imported === name || imported.startsWith(`${name}/`))))
        .map((imported) => `${path}: ${imported}`),
    );
    expect(outside).toEqual([]);
    // The server's code and its tests; the tooling that builds the console (infra/) reads it from outside.
    const serverFiles = [...filesBelow('functions', ['.ts']), ...filesBelow('shared', ['.ts']), ...filesBelow('test', ['.ts'])].filter((path) => path !== 'test/console-package.test.ts');
    expect(serverFiles).toEqual(expect.arrayContaining(['functions/resources.ts', 'functions/sign-in/site.ts', 'shared/http/route-handler.ts', 'test/support/api.ts']));
    const intoTheConsole = serverFiles.flatMap((path) => importsOf(path).filter((imported) => imported.startsWith('.') && resolve(ROOT, path, '..', imported).startsWith(join(ROOT, 'console'))).map((imported) => `${path}: ${imported}`));
    expect(intoTheConsole).toEqual([]);
  });

  it('is served where the server says it is: the two paths, written once each side, are one', () => {
    expect(CONSOLE_BASE).toBe(CONSOLE_PATH);
  });

  it('gives an Idempotency-Key to exactly the writes whose operations take one, as npm run generate wrote them', () => {
    const document = JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { parameters?: { name: string }[] }>> };
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.parameters?.some((parameter) => parameter.name === 'Idempotency-Key'))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect([...TAKES_IDEMPOTENCY_KEY].sort()).toEqual(documented.sort());
    // Every write the API answers once by its key is among them (the inbound URLs also read the header, as a sender's id).
    for (const route of routes.filter(honoursIdempotencyKey)) expect(TAKES_IDEMPOTENCY_KEY.has(`${route.method} ${route.path}`), route.path).toBe(true);
    expect(TAKES_IDEMPOTENCY_KEY.has('POST /v1/leads/{leadId}/activities')).toBe(true);
    // The sign-in's posts and a new API key take none (a key kept in an answer would be kept with it).
    for (const write of ['POST /v1/sign-in/codes', 'POST /v1/api-keys', 'DELETE /v1/leads/{leadId}']) expect(TAKES_IDEMPOTENCY_KEY.has(write), write).toBe(false);
  });
});
