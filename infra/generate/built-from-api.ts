import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Writer } from './writers';

/**
 * What `npm run generate` builds from the API once its generated modules are current: the OpenAPI document (its
 * enumerations are those modules'), the integrations' definitions, the stacks' capacity and the document's types.
 * infra/generate/run.ts imports this file in a module graph of its own, so every module here is read as written.
 */
export const builtFromApi: Writer[] = [
  { name: 'the OpenAPI document (docs/openapi.json)', files: async () => [(await import('../../functions/meta/generated')).documentFile()] },
  { name: 'the Zapier app (integrations/zapier/generated.json)', files: async () => [(await import('../../integrations/zapier/generate')).generatedFile()] },
  { name: 'the n8n node (integrations/n8n/nodes)', files: async () => (await import('../../integrations/n8n/tools/generate')).n8nFiles() },
  { name: 'the stacks’ capacity (docs/capacity.md)', files: async () => [(await import('../capacity/table')).capacityFile()] },
  { name: 'the typed client (examples/client/schema.d.ts)', files: () => [typesFile('examples/client/schema.d.ts')] },
  // The console's door to the API: its paths, by the same openapi-typescript (the root's install holds no such tooling).
  { name: 'the console’s API types (console/src/api-schema.d.ts)', files: () => [typesFile('console/src/api-schema.d.ts')] },
];

/** The document's types, by the typed client folder's openapi-typescript (it prints them without --output). */
function typesFile(path: string) {
  const generator = new URL('../../examples/client/node_modules/.bin/openapi-typescript', import.meta.url);
  if (!existsSync(generator)) throw new Error('its generator is not installed: run npm run integrations:install, then npm run generate again');
  const document = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));
  return { path: new URL(`../../${path}`, import.meta.url), content: execFileSync(fileURLToPath(generator), [document], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }) };
}
