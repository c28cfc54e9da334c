import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { resources, routes } from '../functions/resources';
import { resourceFileExports } from '../infra/resource-files';
import type { DemoData, IsolationCase, IsolationCases, IsolationIds, IsolationIdsOf } from '#shared/resource';
import type { RouteDefinition } from '#shared/routes/route';
import { itemsOf } from './support/fixtures';
import { useTestApi, type Client } from './support/api';
import { recordAwsCalls, type RecordedCall } from '../infra/local/strict-access';
import { expectTenantCallAsDeployed } from './support/deployed-policies';

const api = useTestApi();

/**
 * Every route that takes an API key is classified by its resource's `isolation.ts` (read through the list of
 * resources): the requests where an id of another record enters, or why none does. The last test fails for a route
 * neither lists, so a new route is classified before it ships. Every AWS call B's requests make is then evaluated
 * against the synthesized templates, as the route tour's are (tenancy-simulation.test.ts): a second source for the
 * policy simulation, with the ids of another organization in every place one enters.
 */
const CASES: Record<string, IsolationCase[]> = {};
const NO_ID_ENTERS: Record<string, string> = {};
for (const isolationCases of (await resourceFileExports<IsolationCases>('isolation.ts', 'isolationCases')).values()) {
  for (const [operationId, cases] of Object.entries(isolationCases)) {
    if (typeof cases === 'string') NO_ID_ENTERS[operationId] = cases;
    else CASES[operationId] = cases;
  }
}

/** The resources' own ids beyond the demo's summary: each `isolationIds` an isolation.ts exports, or a resource without one derives. */
const ID_SOURCES: IsolationIdsOf[] = [];
for (const { name, tests } of resources) {
  const module = new URL(`../functions/${name}/isolation.ts`, import.meta.url);
  const { isolationIds } = existsSync(module) ? ((await import(/* @vite-ignore */ module.href)) as { isolationIds?: IsolationIdsOf }) : { isolationIds: tests?.isolationIds };
  if (isolationIds) ID_SOURCES.push(isolationIds);
}

// A PATCH alias answers as its PUT does: the same cases, sent as PATCH.
for (const route of routes) if (route.aliasOf && CASES[route.aliasOf]) CASES[route.operationId] = CASES[route.aliasOf]!;

describe("another organization's ids, on every route where an id enters", () => {
  let a: { organizationId: string; client: Client; demo?: Record<string, unknown> };
  let b: Client;
  let bOrganization: string;
  let ids: IsolationIds;
  /** Every AWS call B's requests made, for the policies as deployed (./support/deployed-policies.ts). */
  const recordedForB: RecordedCall[] = [];
  async function recordedAsB<T>(send: () => Promise<T>): Promise<T> {
    let answer!: T;
    recordedForB.push(...(await recordAwsCalls(async () => void (answer = await send()))));
    return answer;
  }
  let before: string[];

  beforeAll(async () => {
    a = await api.organization({ demo: true });
    ({ client: b, organizationId: bOrganization } = await api.organization());
    const demo = a.demo as DemoData;
    // The demo seed's summary names A's records (`leadIds` → `leadId`, its first); each resource names the others.
    const found: IsolationIds = Object.fromEntries(Object.entries(demo).flatMap(([name, value]) => (/^\w+Ids$/.test(name) && Array.isArray(value) ? [[name.slice(0, -1), value[0]]] : [])));
    for (const isolationIds of ID_SOURCES) Object.assign(found, await isolationIds({ demo, client: a.client }));
    // A case naming an id no one provides fails, rather than sending `undefined` and being answered 404.
    ids = new Proxy(found, { get: (target, name: string) => target[name] ?? expect.fail(`no resource names organization A's ${name}`) });
    before = await itemsOf(a.organizationId);
  });

  const cases = Object.entries(CASES).flatMap(([operationId, list]) => list.map((c, i) => [`${operationId} #${i + 1}`, operationId, c] as const));

  it.each(cases)('%s: organization B is answered as if the record did not exist', async (_, operationId, c) => {
    const route = routes.find((candidate) => candidate.operationId === operationId)!;
    const res = await recordedAsB(() => b.request(route.method, c.path(ids), c.body ? { body: c.body(ids) } : {}));
    const leaked = Object.values(ids).filter((id) => typeof id === 'string' && JSON.stringify(res.body).includes(id) && !c.path(ids).includes(id) && !JSON.stringify(c.body?.(ids) ?? '').includes(id));
    expect(leaked, 'A’s ids in B’s answer, beyond those B sent').toEqual([]);
    if (c.expect === 'not-found') expect(res.status).toBe(404);
    if (c.expect === 'refused') expect([400, 404]).toContain(res.status);
    if (c.expect === 'empty-list') expect(res.body.totalCount).toBe(0);
    if (c.expect === 'unknown-caller') expect([res.status, res.body.caller?.lead]).toEqual([200, null]);
    if (c.expect === 'batch-not-found') expect(res.body.results).toEqual([{ id: ids.productId, status: 'error', code: 'NOT_FOUND', message: 'Trade product not found' }]);
  });

  it("signed each of B's calls for B alone: allowed as deployed for B, denied to another organization, and naming none of A's keys", () => {
    const tenantCalls = recordedForB.filter((call) => call.session);
    // Each route answering 404 looked for the record, so each is among them (a PATCH alias's calls are its PUT's).
    const looked = new Set(tenantCalls.map((call) => call.route));
    const answering = (operationId: string) => routes.find((route) => route.operationId === operationId)!.aliasOf ?? operationId;
    expect(cases.filter(([, , c]) => c.expect === 'not-found').map(([, operationId]) => answering(operationId)).filter((operationId) => !looked.has(operationId))).toEqual([]);
    for (const call of tenantCalls) {
      expect(call.session!.organizationId).toBe(bOrganization);
      expect(call.requests.flatMap((request) => request.leadingKeys).filter((key) => key.includes(a.organizationId))).toEqual([]);
      expectTenantCallAsDeployed(call);
    }
  });

  it("leaves every one of A's items exactly as it was", async () => {
    expect(await itemsOf(a.organizationId)).toEqual(before);
  });

  it('classifies every route that takes an API key', () => {
    const unclassified = routes
      .filter((route: RouteDefinition) => route.auth !== 'none')
      .map((route) => route.operationId)
      .filter((operationId) => !(operationId in CASES) && !(operationId in NO_ID_ENTERS));
    expect(unclassified, 'add the route to CASES (an id enters) or NO_ID_ENTERS (why none does)').toEqual([]);
  });
});
