import { scaledRoutes, synthApiStack } from '../../infra/capacity/scaled-stacks';

/** The API stack synthesized for `times` today's routes: how long, and how many resources its stacks hold. */
export interface StackSize {
  times: number;
  routes: number;
  synthSeconds: number;
  parentResources: number;
  largestNestedResources: number;
  nestedStacks: number;
}

/**
 * The synth at today's routes and at three times as many (test/stack-limits.test.ts holds the limits; this only
 * measures). A first synth, not counted, loads and warms what every synth runs.
 */
export function measureStackSizes(progress: (line: string) => void, scales: readonly number[] = [1, 3]): StackSize[] {
  progress('stacks: a warm-up synth of the API stack');
  synthApiStack(scaledRoutes(1));
  return scales.map((times) => {
    progress(`stacks: the API stack at ${times}× today's routes`);
    const routes = scaledRoutes(times);
    const { ms, parentResources, nestedResources } = synthApiStack(routes);
    return { times, routes: routes.length, synthSeconds: ms / 1000, parentResources, largestNestedResources: Math.max(...nestedResources), nestedStacks: nestedResources.length };
  });
}
