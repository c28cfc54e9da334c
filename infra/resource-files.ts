import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resources } from '../functions/resources';

const functionsDir = new URL('../functions/', import.meta.url);

/**
 * One export of a side file each resource folder may have (`demo.ts`'s `demoSeed`, `isolation.ts`'s
 * `isolationCases`), by resource name in list order. They stay out of the resource's description, which functions
 * bundle, so they are found by the list instead; a folder with the file but not the export fails loudly. A folder
 * without the file may have them derived in its description's `tests` (a CRUD resource's tour and isolation cases).
 */
export async function resourceFileExports<T>(file: string, exportName: string): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  for (const { name, tests } of resources) {
    const module = new URL(`${name}/${file}`, functionsDir);
    const derived = (tests as Record<string, T | undefined> | undefined)?.[exportName];
    if (!existsSync(fileURLToPath(module))) {
      if (derived !== undefined) found.set(name, derived);
      continue;
    }
    const exported = ((await import(/* @vite-ignore */ module.href)) as Record<string, T | undefined>)[exportName];
    if (exported === undefined) throw new Error(`functions/${name}/${file} exports no ${exportName}`);
    found.set(name, exported);
  }
  return found;
}
