import type { DemoData, DemoSeed } from '#shared/resource';
import { resourceFileExports } from '../resource-files';

/**
 * The seeds in waves: each wave holds those whose named seeds ran in the waves before, in list order. A wave's seeds
 * run at once, as concurrent clients would (their stores hold their invariants against each other).
 */
export function seedWaves(seeds: ReadonlyMap<string, DemoSeed>): string[][] {
  let pending = [...seeds.keys()];
  const done = new Set<string>();
  const waves: string[][] = [];
  while (pending.length > 0) {
    const wave = pending.filter((name) => (seeds.get(name)!.after ?? []).every((before) => done.has(before)));
    if (wave.length === 0) throw new Error(`Demo seeds wait on each other or on a resource without one: ${pending.join(', ')}`);
    for (const name of wave) done.add(name);
    pending = pending.filter((name) => !done.has(name));
    waves.push(wave);
  }
  return waves;
}

/**
 * Fills an organization with a realistic Australian-trades data set that exercises every endpoint: each resource's
 * demo data, through its own store and rules. Returns the ids made, by kind (`leadIds`, `smsThreadId`, …).
 */
export async function seedDemoData(organizationId: string): Promise<Record<string, unknown>> {
  const seeds = await resourceFileExports<DemoSeed>('demo.ts', 'demoSeed');
  const demo: DemoData = {};
  for (const wave of seedWaves(seeds)) {
    // Merged in list order once the whole wave is done: a seed reads what the waves before it made, and none changes
    // what it read in place.
    const made = await Promise.all(wave.map((name) => seeds.get(name)!.run(organizationId, demo)));
    for (const part of made) Object.assign(demo, part);
  }
  return Object.fromEntries(Object.entries(demo).filter(([name]) => /Ids?$/.test(name)));
}
