import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resources } from '../../functions/resources';
import type { DemoData, DemoSeed } from '../../shared/resource';

const functionsDir = new URL('../../functions/', import.meta.url);

/** Each resource's demo seed (the `demoSeed` of its folder's `demo.ts`, if it has one), by resource name, in list order. */
async function demoSeeds(): Promise<Map<string, DemoSeed>> {
  const seeds = new Map<string, DemoSeed>();
  for (const { name } of resources) {
    const module = new URL(`${name}/demo.ts`, functionsDir);
    if (!existsSync(fileURLToPath(module))) continue;
    const { demoSeed } = (await import(/* @vite-ignore */ module.href)) as { demoSeed?: DemoSeed };
    if (!demoSeed) throw new Error(`functions/${name}/demo.ts exports no demoSeed`);
    seeds.set(name, demoSeed);
  }
  return seeds;
}

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
  const seeds = await demoSeeds();
  const demo: DemoData = {};
  for (const name of seedOrder(seeds)) Object.assign(demo, await seeds.get(name)!.run(organizationId, demo));
  return Object.fromEntries(Object.entries(demo).filter(([name]) => /Ids?$/.test(name)));
}
