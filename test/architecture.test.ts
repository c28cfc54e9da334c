import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const SHARED = join(ROOT, 'shared');

const FUNCTIONS = join(ROOT, 'functions');

interface Module {
  /** Path from the repository root, e.g. shared/http/api-handler.ts. */
  module: string;
  /** The repository paths it imports, without extension. */
  imports: string[];
}

/** Every TypeScript module below `dir` with the repository paths its relative and `#shared/` imports resolve to, loaded at import or later (`import('./…')`). */
function modulesBelow(dir: string): Module[] {
  // A resource's tests beside it may use other resources: they are no part of its imports.
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
  return files.map((file) => {
    const source = readFileSync(join(dir, file), 'utf8');
    const specifiers = [...source.matchAll(/^(?:import|export)[^;]*?from '((?:\.|#shared\/)[^']+)'|\bimport\('((?:\.|#shared\/)[^']+)'\)/gms)].map((match) => (match[1] ?? match[2])!);
    return { module: relative(ROOT, join(dir, file)), imports: specifiers.map((specifier) => relative(ROOT, specifier.startsWith('#shared/') ? join(SHARED, specifier.slice('#shared/'.length)) : resolve(dirname(join(dir, file)), specifier)).replace(/\.ts$/, '')) };
  });
}

/** `shared/store/keys` → `store`; `shared/config` → `config`; `functions/leads/store` → `leads`. */
const folderOf = (path: string) => path.split('/')[1]!.replace(/\.ts$/, '');

/** Which folders of shared/ a folder must never import, and why. */
const FORBIDDEN: Record<string, { folders: string[]; why: string }> = {
  store: { folders: ['http', 'routes', 'openapi', 'auth'], why: 'the store kernel maps and persists; status codes, routes and documents are the edge’s' },
  http: { folders: ['store', 'openapi'], why: 'middleware is about requests and responses, not data; only the handler factory wires storage in' },
  routes: { folders: ['http', 'store', 'openapi'], why: 'a route row is data: what the stack, the local server and the document read' },
};

/** A module in a folder of its own, not a file at the top (functions/resources.ts, the list every resource is in, composes them). */
const inFolder = (path: string) => path.split('/').length > 2;

/** Folder → folders it imports, for cycles. */
function graphOf(modules: Module[], root: 'shared' | 'functions'): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { module, imports } of modules.filter((m) => root === 'shared' || inFolder(m.module))) {
    const from = folderOf(module);
    for (const target of imports.filter((path) => path.startsWith(`${root}/`) && (root === 'shared' || inFolder(path)))) {
      const to = folderOf(target);
      if (to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** Each cycle once, as `a → b → a`. */
function cyclesOf(graph: Map<string, Set<string>>): string[] {
  const cycles = new Set<string>();
  const walk = (node: string, path: string[]) => {
    for (const next of graph.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) {
        const cycle = path.slice(at);
        const start = cycle.indexOf([...cycle].sort()[0]!);
        cycles.add([...cycle.slice(start), ...cycle.slice(0, start), cycle[start]!].join(' → '));
      } else walk(next, [...path, next]);
    }
  };
  for (const node of graph.keys()) walk(node, [node]);
  return [...cycles].sort();
}

/**
 * A module's code without its comments: identifiers, keywords and the text of its string, template and regex
 * literals. (`import.meta` is the language's, not a name.)
 */
function codeWithoutComments(source: string): string {
  let code = '';
  let last = '';
  for (let i = 0; i < source.length; ) {
    const [c, next] = [source[i]!, source[i + 1]];
    if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 2;
      code += ' ';
    } else if (c === '"' || c === "'" || c === '`' || (c === '/' && /^$|[(,=:[!&|?{};]/.test(last))) {
      // A literal, to its closing quote (a `/` after an operator opens a regex); an escape skips the character after it.
      let j = i + 1;
      while (j < source.length && source[j] !== c) j += source[j] === '\\' ? 2 : 1;
      code += source.slice(i, j + 1);
      [i, last] = [j + 1, c];
    } else {
      code += c;
      if (!/\s/.test(c)) last = c;
      i++;
    }
  }
  return code.replaceAll('import.meta', '');
}

/** The words of code, lower case: `inboundEndpointId`, `INBOUND_ENDPOINT` and 'inbound-endpoint' are inbound, endpoint (and id). */
const wordsOf = (code: string) =>
  code
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** `leads` → `lead`, `inquiries` → `inquiry`; `sms` stays. */
const singular = (word: string) => (word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.endsWith('s') && word.length > 3 ? word.slice(0, -1) : word);

/** Each resource name spelled in a module's code, with how often: `inbound-endpoints` is the words inbound, endpoint in a row. */
function resourceNamesIn(code: string, names: readonly string[]): Map<string, number> {
  const words = wordsOf(code).map(singular);
  const found = new Map<string, number>();
  for (const name of names) {
    const parts = name.split('-').map(singular);
    for (let at = 0; at < words.length; at++) if (parts.every((part, k) => words[at + k] === part)) found.set(name, (found.get(name) ?? 0) + 1);
  }
  return found;
}

/**
 * Resource names shared/ may spell, each with why; `modules`, where given, is where.
 */
const NAMES_SHARED_MAY_SPELL: { name: string; modules?: string[]; why: string }[] = [
  { name: 'organization', why: 'the tenant: every key starts with one, every request acts for one' },
  { name: 'events', why: 'the platform’s word: a Lambda handler’s event, and the changes every resource’s writes emit (shared/resource.ts), which the events resource only lists' },
  { name: 'tags', why: 'OpenAPI’s word: the tags that group a route in the reference, a word a resource may also take as its name' },
  { name: 'services', why: 'the platform’s word: the service name metrics and logs carry, 503 Service Unavailable' },
  {
    name: 'webhooks',
    modules: ['shared/openapi/document.ts', 'shared/openapi/outgoing.ts', 'shared/routes/route.ts', 'shared/resource.ts', 'shared/signed-posts.ts'],
    why: 'OpenAPI 3.1 calls the requests an API sends `webhooks`, and Standard Webhooks names the headers that sign a post `webhook-*`',
  },
  { name: 'webhooks', modules: ['shared/private-urls.ts'], why: 'the name of the environment variable the stacks and npm start set' },
  { name: 'mcp', modules: ['shared/audit/entry.ts', 'shared/http/write-path.ts'], why: 'the audit log’s `via: mcp`, a label any request may carry in a header, which names no route' },
  { name: 'automations', modules: ['shared/audit/entry.ts'], why: 'the audit log’s `via: automation`, the writer of a run’s steps, as `inbound` and `admin` are writers' },
  { name: 'mcp', modules: ['shared/auth/scopes.ts'], why: 'the API key authorizer, which bundles no route table, lets every scope reach the one route that checks scopes itself' },
  { name: 'inquiries', modules: ['shared/schema/pages.ts'], why: 'the sync filter’s description names the two lists where it combines with another filter' },
  { name: 'webhooks', modules: ['shared/schema/pages.ts'], why: 'the sync filter’s description names the records that never change (delivery attempts) among others' },
  { name: 'policies', modules: ['shared/tenancy/policies.ts', 'shared/tenancy/credentials.ts', 'shared/tenancy/session.ts'], why: 'IAM’s word: the policy documents that hold a session to its organization (docs/decisions/tenancy.md), not the policies resource' },
  {
    name: 'policies',
    modules: ['shared/iam.ts', 'shared/routes/route.ts', 'shared/http/route-handler.ts'],
    why: 'IAM’s word: a policy statement as a capability gives it to a tenant session, and the session policies the route handler signs with (shared/tenancy/policies.ts), not the policies resource',
  },
  {
    name: 'api-keys',
    why: 'the credential every request carries: the authorizer finds it, scopes and the gateway’s answers speak of it, members’ removal, OAuth’s grants and the admin CLI make and end it (shared/auth/api-keys.ts); the api-keys resource is the routes an ADMIN manages them by',
  },
  { name: 'sign-in', modules: ['shared/openapi/security.ts'], why: 'the session cookie’s security scheme names the route that sets the cookie' },
  { name: 'policies', modules: ['shared/envelope-encryption.ts'], why: 'the Encryption SDK’s own `CommitmentPolicy`, a name of its API, not the policies resource' },
];

describe('shared/ and the resource folders', () => {
  const shared = modulesBelow(SHARED);
  const resources = modulesBelow(FUNCTIONS);

  it('finds the modules it checks', () => {
    expect(shared.map((m) => folderOf(m.module))).toEqual(expect.arrayContaining(['store', 'http', 'routes', 'openapi']));
    expect(new Set(resources.map((m) => folderOf(m.module))).size).toBeGreaterThan(12);
  });

  it('shared/ never imports a resource folder: it holds what several resources use, and names none of them', () => {
    const violations = shared.flatMap((m) => m.imports.filter((path) => path.startsWith('functions/')).map((path) => `${m.module} → ${path}`));
    expect(violations).toEqual([]);
  });

  it.each(Object.entries(FORBIDDEN))('shared/%s imports none of the folders above it', (folder, { folders, why }) => {
    const violations = shared
      // The handler factory composes the layers (its idempotency store is the table), with the write path only write
      // routes' functions load; nothing else in http may.
      .filter((m) => folderOf(m.module) === folder && !['shared/http/api-handler.ts', 'shared/http/write-path.ts'].includes(m.module))
      .flatMap((m) => m.imports.filter((path) => path.startsWith('shared/') && folders.includes(folderOf(path))).map((path) => `${m.module} → ${path}`));
    expect(violations, why).toEqual([]);
  });

  it('shared/ spells no resource’s name in its code (comments aside), but for the exceptions named with their reasons', async () => {
    const { resources: definitions } = await import('../functions/resources');
    const names = definitions.map((resource) => resource.name);
    expect(names).toEqual(expect.arrayContaining(['leads', 'inquiries', 'sms', 'faqs', 'webhooks', 'inbound-endpoints']));
    const allowed = (module: string, name: string) => NAMES_SHARED_MAY_SPELL.some((exception) => exception.name === name && (!exception.modules || exception.modules.includes(module)));
    const spelled = shared.flatMap(({ module }) =>
      [...resourceNamesIn(codeWithoutComments(readFileSync(join(ROOT, module), 'utf8')), names)].filter(([name]) => !allowed(module, name)).map(([name, times]) => `${module}: ${name} ×${times}`),
    );
    expect(spelled, 'move what one resource uses into its folder; name what several share for what it does').toEqual([]);
    // Each exception still has something to excuse.
    const unused = NAMES_SHARED_MAY_SPELL.filter(({ name, modules }) => !shared.some(({ module }) => (!modules || modules.includes(module)) && resourceNamesIn(codeWithoutComments(readFileSync(join(ROOT, module), 'utf8')), [name]).size > 0));
    expect(unused.map(({ name, modules }) => `${name} in ${modules?.join(', ') ?? 'any module'}`)).toEqual([]);
  });

  it('reads a resource’s name in identifiers and literals, in any case and number, and not in comments', () => {
    const names = ['leads', 'inquiries', 'inbound-endpoints', 'sms'];
    expect([...resourceNamesIn(codeWithoutComments("const leadKey = (o: string) => `LEADS#${o}`; const x = 'inquiry';"), names)]).toEqual([['leads', 2], ['inquiries', 1]]);
    expect([...resourceNamesIn(codeWithoutComments('type A = { inboundEndpointId: string; INBOUND_ENDPOINTS: 1; smsSender: 2 };'), names)]).toEqual([['inbound-endpoints', 2], ['sms', 1]]);
    expect(resourceNamesIn(codeWithoutComments("// the lead's inquiry\n/* leads */ const misleading = /leading/; const url = new URL('x', import.meta.url);"), [...names, 'meta']).size).toBe(0);
  });

  it('has no import cycle between the folders of shared/', () => {
    expect(cyclesOf(graphOf(shared, 'shared'))).toEqual([]);
  });

  it('has no import cycle between resource folders: a resource uses another only one way', () => {
    expect(cyclesOf(graphOf(resources, 'functions'))).toEqual([]);
  });

  it('each resource’s events and audited records are its changes.ts’s, which imports no route: what the stream consumer reads', async () => {
    const { resources: definitions } = await import('../functions/resources');
    const { resourceChangesOf } = await import('../functions/resource-changes');
    const withChanges = definitions.filter((resource) => resource.events?.length || resource.audited?.length);
    const entities = withChanges.flatMap((resource) => [...(resource.events ?? []), ...(resource.audited ?? [])].map((source) => source.entity));
    expect(Object.keys(resourceChangesOf).sort()).toEqual([...new Set(entities)].sort());
    for (const resource of withChanges) {
      const { changes } = (await import(`../functions/${resource.name}/changes.ts`)) as { changes: { events?: unknown; audited?: unknown } };
      expect(resource.events, resource.name).toBe(changes.events);
      expect(resource.audited, resource.name).toBe(changes.audited);
      // Each entity the resource stores loads this resource's changes, and no other's.
      for (const source of [...(resource.events ?? []), ...(resource.audited ?? [])]) expect((await resourceChangesOf[source.entity]!()).changes, source.entity).toBe(changes);
    }
    // Every module the stream consumer's modules reach, transitively: none is a route table, an example or the list of resources.
    const importsOf = new Map([...shared, ...resources].map((m) => [m.module.replace(/\.ts$/, ''), m.imports]));
    const reached = new Set<string>();
    const visit = (path: string) => {
      if (reached.has(path)) return;
      reached.add(path);
      for (const imported of importsOf.get(path) ?? []) visit(imported);
    };
    for (const m of resources.filter((m) => m.module.startsWith('functions/stream/'))) visit(m.module.replace(/\.ts$/, ''));
    expect(reached.size).toBeGreaterThan(20);
    expect([...reached].filter((path) => /^functions\/[^/]+\/(routes|examples|handlers|resource)$/.test(path) || path === 'functions/resources')).toEqual([]);
  });

  it('the DynamoDB client names failures as domain errors, never as HTTP responses', () => {
    const dynamo = shared.find((m) => m.module === 'shared/dynamo.ts')!;
    expect(dynamo.imports.filter((path) => path.startsWith('shared/http'))).toEqual([]);
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

  it('say where a route’s handler is as the stack finds it: an export of its resource’s handlers.ts, named by its operationId', async () => {
    const { routes } = await import('../functions/resources');
    for (const route of routes.filter((candidate) => !candidate.aliasOf)) {
      const handlers = (await import(`../functions/${route.resource}/handlers.ts`)) as Record<string, unknown>;
      expect(typeof handlers[`${route.operationId}Handler`], route.operationId).toBe('function');
    }
    // Every line of the README that says what a resource's folder holds names that module.
    const folderLines = readme.split('\n').filter((line) => line.includes('route rows'));
    expect(folderLines.length).toBeGreaterThanOrEqual(2);
    for (const line of folderLines) expect(line).toContain('handlers.ts');
  });

  it('name every helper they tell a change to use, and each is exported where they say', () => {
    const exported = (file: string) => readFileSync(join(ROOT, file), 'utf8');
    for (const helper of ['insertIfAbsent', 'requireExisting', 'deleteItem', 'transact', 'writeAlone']) {
      expect(steps).toContain(`\`${helper}\``);
      expect(exported('shared/store/transact.ts')).toMatch(new RegExp(`export (async )?function ${helper}\\b`));
    }
    expect(exported('shared/store/counters.ts')).toMatch(/export function counterUpdate\b/);
    expect(exported('shared/schema.ts')).toMatch(/export function partialUpdateBody\b/);
  });
});
