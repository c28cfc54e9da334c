import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { failureText, runWriters, type Writer } from '../infra/generate/writers';

/** `npm run generate`'s runner (infra/generate/writers.ts), with writers of files in a folder of the test's own. */
describe('npm run generate', () => {
  const folder = () => pathToFileURL(`${mkdtempSync(join(tmpdir(), 'generate-'))}/`);

  it('writes what every other writer makes when one fails, and names the one that failed', async () => {
    const at = folder();
    const writers: Writer[] = [
      { name: 'the document', files: () => [{ path: new URL('openapi.json', at), content: '{}\n' }] },
      {
        name: 'the Zapier app',
        files: () => {
          throw new Error('the Zapier action create_tag calls create_tags, which is no API tool');
        },
      },
      { name: 'the n8n node', files: async () => [{ path: new URL('nodes/operations.json', at), content: '[]\n' }] },
    ];
    const wrote: string[] = [];
    const { written, failures } = await runWriters(writers, (path) => wrote.push(path.href));
    expect(readFileSync(new URL('openapi.json', at), 'utf8')).toBe('{}\n');
    expect(readFileSync(new URL('nodes/operations.json', at), 'utf8')).toBe('[]\n');
    expect(written.map((path) => path.href)).toEqual([new URL('openapi.json', at).href, new URL('nodes/operations.json', at).href]);
    expect(wrote).toEqual(written.map((path) => path.href));
    expect(failures.map(failureText)).toEqual(['the Zapier app: the Zapier action create_tag calls create_tags, which is no API tool']);
  });

  it('writes only a file whose content changed', async () => {
    const at = folder();
    writeFileSync(new URL('same.txt', at), 'same\n');
    writeFileSync(new URL('old.txt', at), 'old\n');
    const files = [
      { path: new URL('same.txt', at), content: 'same\n' },
      { path: new URL('old.txt', at), content: 'new\n' },
    ];
    const { written, failures } = await runWriters([{ name: 'the files', files: () => files }]);
    expect(written.map((path) => path.href)).toEqual([new URL('old.txt', at).href]);
    expect(failures).toEqual([]);
  });

  // The integrations' packages are CommonJS (n8n's and Zapier's own), so tsx reads their generators, and every module
  // of the API they import, as CommonJS, where a module that awaits at its top level does not compile. Vitest reads
  // them as ES modules, so only their own loading, as the runner loads them, shows it.
  it('loads the integrations’ generators as its runner does, in tsx’s module graph', async () => {
    const script = `import { tsImport } from 'tsx/esm/api'; for (const generator of ['./integrations/zapier/generate.ts', './integrations/n8n/tools/generate.ts']) await tsImport(generator, import.meta.url);`;
    const { stderr } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd() });
    expect(stderr).toBe('');
  });
});

