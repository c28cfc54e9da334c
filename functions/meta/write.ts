import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resourceModulesFile } from './resource-modules';

/**
 * `npm run generate`: writes the files generated from the list of resources (functions/meta/generated.ts). The
 * document is built from the event types this process imported, so when those change it runs once more.
 */
let changed = false;
// The index of the resources' folders first: the list of resources, which the others are generated from, reads it.
const modules = resourceModulesFile();
if (!existsSync(modules.path) || readFileSync(modules.path, 'utf8') !== modules.content) {
  writeFileSync(modules.path, modules.content);
  console.log(`Wrote ${fileURLToPath(modules.path)}`);
}
const { generatedFiles } = await import('./generated');
for (const { path, content } of generatedFiles()) {
  if (readFileSync(path, 'utf8') === content) continue;
  writeFileSync(path, content);
  changed = true;
  console.log(`Wrote ${fileURLToPath(path)}`);
}
if (changed) execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], { stdio: 'inherit' });
