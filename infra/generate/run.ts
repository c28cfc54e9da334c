import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resourceModulesFile } from '../../functions/meta/resource-modules';
import { failureText, runWriters, type Writer } from './writers';

/**
 * `npm run generate`: one process writes every file generated from the list of resources — the API's own
 * (functions/meta/generated.ts), the MCP tool lists' figures, the Zapier app's and the n8n node's definitions, and the
 * table of what the stacks hold in docs/capacity.md, and the typed client's and the console's types from the document — each writer's files whole or not at all, then names every writer
 * that failed and exits 1. It lives outside functions/: it reads every resource and the integrations beside them.
 */
const api: Writer[] = [
  // The index of the resources' folders first: the list of resources, which the others are generated from, reads it.
  { name: 'the index of the resources', files: () => [resourceModulesFile()] },
  // What the MCP tool lists hold, which the document states: a change runs everything again, the document included.
  { name: 'the MCP tool lists’ figures (functions/mcp/listed.ts)', files: async () => [(await import('../../functions/mcp/listed-figures')).listedFile()] },
  { name: 'the API (OpenAPI document, event types, MCP toolsets)', files: async () => (await import('../../functions/meta/generated')).generatedFiles() },
];
const integrations: Writer[] = [
  { name: 'the Zapier app (integrations/zapier/generated.json)', files: async () => [(await import('../../integrations/zapier/generate')).generatedFile()] },
  { name: 'the n8n node (integrations/n8n/nodes)', files: async () => (await import('../../integrations/n8n/tools/generate')).n8nFiles() },
  { name: 'the stacks’ capacity (docs/capacity.md)', files: async () => [(await import('../capacity/table')).capacityFile()] },
  { name: 'the typed client (examples/client/schema.d.ts)', files: () => [typesFile('examples/client/node_modules', 'examples/client/schema.d.ts', 'run npm run integrations:install')] },
  // The console's door to the API: its paths, by the same openapi-typescript (the root's install holds no such tooling).
  { name: 'the console’s API types (console/src/api-schema.d.ts)', files: () => [typesFile('examples/client/node_modules', 'console/src/api-schema.d.ts', 'run npm run integrations:install')] },
];

/** The document's types, by an openapi-typescript installed beside their reader (it prints them without --output). */
function typesFile(installedIn: string, path: string, install: string) {
  const generator = new URL(`../../${installedIn}/.bin/openapi-typescript`, import.meta.url);
  if (!existsSync(generator)) throw new Error(`its generator is not installed: ${install}, then npm run generate again`);
  const document = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));
  return { path: new URL(`../../${path}`, import.meta.url), content: execFileSync(fileURLToPath(generator), [document], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }) };
}

const log = (path: URL) => console.log(`Wrote ${fileURLToPath(path)}`);
const first = await runWriters(api, log);
if (first.written.length) {
  // The modules this process imported (the event types the document is built from) were read before they were
  // written: everything runs again in a process that reads them anew, and reports what fails there.
  process.exitCode = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], { stdio: 'inherit' }).status ?? 1;
} else {
  const rest = await runWriters(integrations, log);
  const failures = [...first.failures, ...rest.failures];
  for (const failure of failures) console.error(`npm run generate: ${failureText(failure)}`);
  if (failures.length) process.exitCode = 1;
}
