import { describe, expect, it, vi } from 'vitest';
import { routeId } from '#shared/routes/route';
import { routes } from '../functions/resources';
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

describe('the local server’s log under overlapping requests', () => {
  it('writes each request’s line under its own function and operation when requests of two routes overlap', async () => {
    const { client } = await api.organization();
    const written: string[] = [];
    const spies = (['log', 'info', 'warn', 'error'] as const).map((method) => vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void written.push(String(args[0]))));
    const paths = ['/v1/organization', '/v1/leads'];
    try {
      // Twelve requests in flight together, of two routes in turn: each function's context is set while others run.
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => client.get(paths[i % 2]!)));
      expect(answers.map(({ status }) => status)).toEqual(Array(12).fill(200));
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
    const lines = written.flatMap((line) => (line.startsWith('{') ? [JSON.parse(line) as Record<string, string>] : [])).filter((line) => line.message === 'request');
    expect(lines.map(({ operationId }) => operationId).sort()).toEqual([...Array(6).fill('getOrganization'), ...Array(6).fill('listLeads')]);
    // The function a line names is the one that answered its operation, as each route's own Lambda writes it.
    const functionOf = new Map(routes.map((route) => [route.operationId, routeId(route)]));
    for (const line of lines) expect({ operationId: line.operationId, function_name: line.function_name }).toEqual({ operationId: line.operationId, function_name: functionOf.get(line.operationId!) });
  });
});
