import { describe, expect, it } from 'vitest';
import { createOrganizationWithKey } from '../infra/demo/organization';
import { loadRun } from './stress/scenarios';
import { useTestApi } from './support/api';

// The API's own writes only (no stream consumer), against this file's table in the suite's DynamoDB Local: nothing
// here kills the emulator, so it needs no DynamoDB Local of its own (test/faults.test.ts has one).
const api = useTestApi();

describe('concurrent creates, racing renames and parallel SMS', () => {
  it('lose no write, duplicate no name and keep every totalCount equal to the rows listed', async () => {
    const stack = { url: api.url, newOrganization: (name: string) => createOrganizationWithKey(name, { usagePlan: 'internal' }) };
    const figures = await loadRun(stack, { creates: 300, clients: 20, products: 12, renames: 120, sms: 40 });
    expect(figures.unexpected).toEqual([]);
    expect(figures.violations).toEqual([]);
    expect(figures.byStatus['201']).toBeGreaterThanOrEqual(300 + 12 + 41);
  }, 180_000);
});
