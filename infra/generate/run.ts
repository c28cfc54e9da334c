import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { resourceModulesFile } from '../../functions/meta/resource-modules';
import { failureText, runWriters, type Writer } from './writers';

/**
 * `npm run generate`: one process, one pass, writes every file generated from the list of resources, each writer's
 * files whole or not at all, then names every writer that failed and exits 1. It lives outside functions/: it reads
 * every resource and the integrations beside them.
 *
 * The API's modules import some of what it generates (the event types, the toolsets): those are written first, from
 * the resources' own definitions, and everything built from the API is then read in a module graph of its own (tsx's
 * tsImport), which reads them as written. Nothing runs twice.
 */
const generatedModules: Writer[] = [
  // The index of the resources' folders first, from the folders alone: the list of resources is read from it.
  { name: 'the index of the resources', files: () => [resourceModulesFile()] },
  { name: 'the API’s generated modules (event types, toolsets, route roles)', files: async () => (await import('../../functions/meta/generated')).generatedModules() },
];

const log = (path: URL) => console.log(`Wrote ${fileURLToPath(path)}`);
const first = await runWriters(generatedModules, log);
const { builtFromApi } = (await tsImport('./built-from-api.ts', import.meta.url)) as typeof import('./built-from-api');
const rest = await runWriters(builtFromApi, log);
const failures = [...first.failures, ...rest.failures];
for (const failure of failures) console.error(`npm run generate: ${failureText(failure)}`);
if (failures.length) process.exitCode = 1;
