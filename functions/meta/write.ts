import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generatedFiles } from './generated';

/**
 * `npm run generate`: writes the files generated from the list of resources (functions/meta/generated.ts). The
 * document is built from the event types this process imported, so when those change it runs once more.
 */
let changed = false;
for (const { path, content } of generatedFiles()) {
  if (readFileSync(path, 'utf8') === content) continue;
  writeFileSync(path, content);
  changed = true;
  console.log(`Wrote ${fileURLToPath(path)}`);
}
if (changed) execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], { stdio: 'inherit' });
