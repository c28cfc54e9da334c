import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StressStack } from './stress/stack';
import { TEST_JVM_OPTIONS } from './support/jvm';

const { startStressStack } = await import('./stress/stack');
const { loadRun } = await import('./stress/scenarios');

let stack: StressStack;
beforeAll(async () => {
  // The API's own writes only: the stream consumer's work would crowd DynamoDB Local on a 2-core machine.
  stack = await startStressStack({ events: false, jvmOptions: TEST_JVM_OPTIONS });
});
afterAll(async () => {
  await stack?.stop();
});

describe('concurrent creates, racing renames and parallel SMS', () => {
  it('lose no write, duplicate no name and keep every totalCount equal to the rows listed', async () => {
    const figures = await loadRun(stack, { creates: 300, clients: 20, products: 12, renames: 120, sms: 40 });
    expect(figures.unexpected).toEqual([]);
    expect(figures.violations).toEqual([]);
    expect(figures.byStatus['201']).toBeGreaterThanOrEqual(300 + 12 + 41);
  }, 180_000);
});
