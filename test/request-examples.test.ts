import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { API, buildDocument } from '../functions/meta/document';
import { routes } from '../functions/resources';
import { errorExamplesOfRoute } from '#shared/openapi/document';
import type { RouteDefinition } from '#shared/routes/route';
import { useTestApi } from './support/api';
import { demoIds, withOwnIds } from './support/demo-ids';
import { memberSession } from './support/member-session';

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
  });
});

describe('the 400 and 404 examples of every operation', () => {
  it('are the answers the API gives to the requests they were made from, each with one value wrong', async () => {
    const { client: keyed, demo, organizationId } = await api.organization({ demo: true });
    // A member's own routes are called with a member's session, as the console calls them; every other with the key.
    const session = await memberSession(api, organizationId);
    const client = keyed;
    const ids = { eventId: 'evt_01JCZ3V7Q8K2M4N6P8R0S2T4V6', ...(await demoIds(client, demo!)) };
    const shown: string[] = [];
    const differing: string[] = [];
    // The inbound URL's own authorizer wants its token; every other operation is called with the API key.
    for (const route of routes.filter((candidate) => candidate.authorizer === undefined)) {
      for (const [status, example] of Object.entries(errorExamplesOfRoute(route, API))) {
        if (!example) continue;
        const { request, wrong } = example;
        const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(request.path?.[name] ?? String(ids[name as keyof typeof ids])));
        const query = request.query ? `?${new URLSearchParams(request.query)}` : '';
        // The example body's ids become this organization's; the wrong value stays as it is.
        const body = request.body === undefined ? undefined : { ...(withOwnIds(request.body, ids) as object), [wrong.field]: (request.body as Record<string, unknown>)[wrong.field] };
        const res = await (route.sessionOnly ? session : client).request(route.method, path + query, body === undefined ? {} : { body });
        shown.push(`${route.operationId} ${status}`);
        if (res.status !== Number(status) || !isDeepStrictEqual(res.body, example.answer)) {
          differing.push(`${route.method} ${path}${query} (${example.summary}): shows ${status} ${JSON.stringify(example.answer)}, answered ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
    expect(differing).toEqual([]);
    // What the batch update showed before: "limit must be at most 100", for a parameter it does not take.
    expect(shown).toEqual(expect.arrayContaining(['batchUpdateProducts 400', 'createLead 400', 'listLeads 400', 'getLead 404', 'sendSms 404']));
  });
});
