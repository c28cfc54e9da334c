import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const SHARED = join(ROOT, 'shared');

/** Every module below shared/ with the folders of shared/ it imports from (a top-level module by its name, e.g. "dynamo"). */
function sharedImports(): { module: string; imports: string[] }[] {
  const files = readdirSync(SHARED, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  return files.map((file) => {
    const source = readFileSync(join(SHARED, file), 'utf8');
    const specifiers = [...source.matchAll(/^(?:import|export)[^;]*?from '(\.[^']+)'/gms)].map((match) => match[1]!);
    const imports = specifiers.map((specifier) => relative(SHARED, resolve(dirname(join(SHARED, file)), specifier)).split('/')[0]!);
    return { module: file, imports };
  });
}

const layerOf = (module: string) => module.split('/')[0]!;

/** Which folders of shared/ a layer must never import, and why. */
const FORBIDDEN: Record<string, { folders: string[]; why: string }> = {
  entities: { folders: ['repositories', 'domain', 'http', 'routes'], why: 'entities own key formats and item mappers; they know nothing of storage calls or HTTP' },
  repositories: { folders: ['domain', 'http', 'routes'], why: 'repositories only map and persist; rules live in the domain layer, status codes in http' },
  domain: { folders: ['http', 'routes'], why: 'domain rules are the same whether a handler, the demo seed or a worker calls them' },
  http: { folders: ['repositories', 'entities', 'domain'], why: 'middleware is about requests and responses, not data; only the handler factory wires storage in' },
};

describe('the layers of shared/', () => {
  const modules = sharedImports();

  it('finds the modules it checks', () => {
    expect(modules.map((m) => layerOf(m.module))).toEqual(expect.arrayContaining(['entities', 'repositories', 'domain', 'http']));
  });

  it.each(Object.entries(FORBIDDEN))('%s imports none of the layers above it', (layer, { folders, why }) => {
    const violations = modules
      // The handler factory composes the layers (its idempotency store is a repository); nothing else in http may.
      .filter((m) => layerOf(m.module) === layer && m.module !== 'http/api-handler.ts')
      .flatMap((m) => m.imports.filter((folder) => folders.includes(folder)).map((folder) => `${m.module} → ${folder}/`));
    expect(violations, why).toEqual([]);
  });

  it('the DynamoDB client names failures as domain errors, never as HTTP responses', () => {
    const dynamo = modules.find((m) => m.module === 'dynamo.ts')!;
    expect(dynamo.imports.filter((folder) => folder === 'http')).toEqual([]);
    expect(readFileSync(join(SHARED, 'dynamo.ts'), 'utf8')).not.toMatch(/BadRequestError|ApiError|statusCode/);
  });
});

describe('the README’s steps for adding an endpoint or a resource', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const steps = readme.slice(readme.indexOf('## Adding an endpoint'), readme.indexOf('## Where things live'));

  it('name only files and folders that exist (reading <resource>, <entity> and <verb> as the companies example)', () => {
    const paths = [...steps.matchAll(/`((?:shared|functions|infra|test|docs)\/[^`\s]*)`/g)].map((match) => match[1]!);
    expect(paths.length).toBeGreaterThan(10);
    const concrete = paths.map((path) => path.replace('<resource>', 'companies').replace('<entity>', 'company').replace('<verb>', 'create'));
    const missing = concrete.filter((path) => !existsSync(join(ROOT, path)));
    expect(missing).toEqual([]);
  });

  it('name every helper they tell a change to use, and each is exported where they say', () => {
    const exported = (file: string) => readFileSync(join(ROOT, file), 'utf8');
    for (const helper of ['insertIfAbsent', 'requireExisting', 'deleteItem', 'transact', 'writeAlone']) {
      expect(steps).toContain(`\`${helper}\``);
      expect(exported('shared/repositories/transact.ts')).toMatch(new RegExp(`export (async )?function ${helper}\\b`));
    }
    expect(exported('shared/repositories/counters.ts')).toMatch(/export function counterUpdate\b/);
    expect(exported('shared/schemas/common.ts')).toMatch(/export function partialUpdateBody\b/);
  });
});
