import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StressStack } from './stress/stack';
import { TEST_JVM_OPTIONS } from './support/jvm';

// This file runs against its own DynamoDB Local, which it kills; the stack is loaded before any shared code.
const { startStressStack } = await import('./stress/stack');
const { faultRun } = await import('./stress/scenarios');

let stack: StressStack;
beforeAll(async () => {
  // The API's own writes only: the stream consumer's work would crowd DynamoDB Local on a 2-core machine.
  stack = await startStressStack({ events: false, jvmOptions: TEST_JVM_OPTIONS });
});
afterAll(async () => {
  await stack?.stop();
});

describe('DynamoDB Local killed in the middle of a stream of creates', () => {
  it('answers every request with a success or a logged 5xx envelope, and loses or half-writes nothing that committed', async () => {
    // The outage's error lines are expected: kept and counted here rather than printed.
    const logged: string[] = [];
    const keep = (...args: unknown[]) => void logged.push(args.map(String).join(' '));
    const spies = [vi.spyOn(console, 'error').mockImplementation(keep), vi.spyOn(console, 'log').mockImplementation(keep)];
    const figures = await faultRun(stack, { creates: 150, clients: 6, downMs: 500 }).finally(() => spies.forEach((spy) => spy.mockRestore()));

    expect(figures.unexpected).toEqual([]);
    expect(figures.violations).toEqual([]);
    // The fault was real: requests failed during it, and only during it. Before the kill and once DynamoDB Local is
    // back, every create answers 201, or 409 CONFLICT for a write that lost its race as often as it retried.
    const failed = Object.entries(figures.byStatus).filter(([status]) => Number(status) >= 500).reduce((sum, [, n]) => sum + n, 0);
    expect(failed).toBeGreaterThan(0);
    const { before, after } = figures.phases!;
    expect(Object.keys(before!).filter((status) => status !== '201' && status !== '409')).toEqual([]);
    expect(Object.keys(after!).filter((status) => status !== '201' && status !== '409')).toEqual([]);
    expect(before!['201']).toBeGreaterThan(0);
    expect(after!['201']).toBeGreaterThan(0);
    // Every failure left an ERROR line (the authorizer's or the request's), and none carries an API key.
    expect(logged.filter((line) => /"level":\s*"ERROR"/.test(line)).length).toBeGreaterThanOrEqual(failed);
    expect(logged.filter((line) => /sp_live_/.test(line))).toEqual([]);
  }, 180_000);
});
