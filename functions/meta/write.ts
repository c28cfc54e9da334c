import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OPENAPI_FILE, serializeDocument } from '../../shared/openapi/document';
import { buildDocument } from './document';

/** `npm run openapi`: writes the generated document to docs/openapi.json. */
const document = buildDocument();
writeFileSync(OPENAPI_FILE, serializeDocument(document));
const operations = Object.values(document.paths as Record<string, object>).reduce((count, path) => count + Object.keys(path).length, 0);
console.log(`Wrote ${fileURLToPath(OPENAPI_FILE)} (${operations} operations)`);
