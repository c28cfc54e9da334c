import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { staleN8nFiles } from './generate';

/** `npm run generate` (after the API's own generated files): writes the n8n node's description and event types. */
for (const { path, content } of staleN8nFiles()) {
  mkdirSync(new URL('.', path), { recursive: true });
  writeFileSync(path, content);
  console.log(`Wrote ${fileURLToPath(path)}`);
}
