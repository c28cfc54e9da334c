import { describe, expect, it } from 'vitest';
import { buildDocument } from '../functions/meta/document';
import { routes } from '../functions/resources';
import type { RouteDefinition } from '../shared/routes/route';
import { useTestApi } from './support/api';
import { demoIds, withOwnIds } from './support/demo-ids';

const api = useTestApi();
const document = buildDocument() as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>> };

const exampleOf = (route: RouteDefinition) => document.paths[route.path]![route.method.toLowerCase()]!.requestBody?.content['application/json']?.example;

/** Keyed routes that take a JSON body: each must show one, and the API must take it. */
const withBody = routes.filter((route) => route.request.body && route.auth !== 'none');

describe('the request example of every operation that takes a body', () => {
  it('is in the document', () => {
    expect(withBody.filter((route) => exampleOf(route) === undefined).map((route) => route.operationId)).toEqual([]);
  });

  it('is taken by the API: a 2xx, or a refusal the operation documents other than 400', async () => {
    const { client, demo } = await api.organization({ demo: true });
    const ids = await demoIds(client, demo!);
    const refused: string[] = [];
    for (const route of withBody) {
      const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => String(ids[name]));
      const res = await client.request(route.method, path, { body: withOwnIds(exampleOf(route), ids) });
      const accepted = res.status < 300 || (res.status !== 400 && route.errors.includes(res.status));
      if (!accepted) refused.push(`${route.method} ${route.path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    expect(refused).toEqual([]);
  }, 120_000);
});
