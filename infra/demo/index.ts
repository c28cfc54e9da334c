import type { DemoData, DemoSeed } from '../../shared/resource';
import { resourceFileExports } from '../resource-files';

/** Seeds each after those it names, in list order wherever the order is free. */
export function seedOrder(seeds: ReadonlyMap<string, DemoSeed>): string[] {
  const pending = [...seeds.keys()];
  const order: string[] = [];
  while (pending.length > 0) {
    const next = pending.findIndex((name) => (seeds.get(name)!.after ?? []).every((before) => order.includes(before)));
    if (next < 0) throw new Error(`Demo seeds wait on each other or on a resource without one: ${pending.join(', ')}`);
    order.push(...pending.splice(next, 1));
  }
  return order;
}

/**
 * Fills an organization with a realistic Australian-trades data set that exercises every endpoint: each resource's
 * demo data, through its own store and rules. Returns the ids made, by kind (`leadIds`, `smsThreadId`, …).
 */
export async function seedDemoData(organizationId: string): Promise<Record<string, unknown>> {
  const seeds = await resourceFileExports<DemoSeed>('demo.ts', 'demoSeed');
  const demo: DemoData = {};
  for (const name of seedOrder(seeds)) Object.assign(demo, await seeds.get(name)!.run(organizationId, demo));
  return Object.fromEntries(Object.entries(demo).filter(([name]) => /Ids?$/.test(name)));
}
