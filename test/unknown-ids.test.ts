import { describe, expect, it } from 'vitest';
import { routes } from '../functions/resources';
import { buildDocument } from '../functions/meta/document';
import type { RouteDefinition } from '#shared/routes/route';
import { useTestApi } from './support/api';
import { memberSession } from './support/member-session';

const api = useTestApi();
const document = buildDocument() as { paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema: { pattern?: string; type?: string; maximum?: number } }[] }>> };

/** Each path parameter's schema, as the document states it. */
const parameterSchema = (route: RouteDefinition, name: string) => document.paths[route.path]![route.method.toLowerCase()]!.parameters!.find((parameter) => parameter.in === 'path' && parameter.name === name)!.schema;

/** An id of the right shape that no record has, and ids that cannot exist, for one parameter. */
function idsFor(route: RouteDefinition, name: string): { unknown: string; malformed: string[] } {
  const schema = parameterSchema(route, name);
  if (schema.type === 'integer') return { unknown: '2147483000', malformed: ['abc', '0', '-1', '1.5', String((schema.maximum ?? 2_147_483_647) + 1)] };
  // An id another made, kept as base64url (a passkey's credential id): another alphabet, too short or too long.
  const base64url = /^\^\[A-Za-z0-9_-\]\{(\d+),(\d+)\}\$$/.exec(schema.pattern ?? '');
  if (base64url) {
    const [min, max] = [Number(base64url[1]), Number(base64url[2])];
    return { unknown: 'A'.repeat(min), malformed: [`${'A'.repeat(min)}=`, `${'A'.repeat(min)}.`, 'A'.repeat(min - 1), 'A'.repeat(max + 1)] };
  }
  const kind = /^\^([a-z]+)_/.exec(schema.pattern ?? '')?.[1];
  if (!kind) throw new Error(`${route.operationId}: ${name} is neither an integer, a base64url id nor a prefixed id`);
  return { unknown: `${kind}_01ZZZZZZZZZZZZZZZZZZZZZZZZ`, malformed: [`${kind}_nope`, 'nope', `${kind}_01zzzzzzzzzzzzzzzzzzzzzzzz`, `${kind}_01ZZZZZZZZZZZZZZZZZZZZZZZZZ`] };
}

const idParameters = (route: RouteDefinition) => [...route.path.matchAll(/\{(\w+Id)\}/g)].map((match) => match[1]!);

/** Keyed routes whose path names a record, with the ids to try in each position. */
const cases = routes
  .filter((route) => route.auth !== 'none' && idParameters(route).length > 0 && route.errors.includes(404))
  .flatMap((route) =>
    idParameters(route).flatMap((name) => {
      const { unknown, malformed } = idsFor(route, name);
      return malformed.map((bad) => [`${route.method} ${route.path} with ${name}=${bad}`, route, name, unknown, bad] as const);
    }),
  );

const fill = (route: RouteDefinition, values: Record<string, string>, fallback: (name: string) => string) =>
  route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? fallback(name)));

describe('an id that cannot exist, in a path', () => {
  it.each(cases)('%s: answers as an id no record has', async (_, route, name, unknown, bad) => {
    const { client: keyed, organizationId } = await api.organization();
    // A member's own routes are called with a member's session, as the console calls them.
    const client = route.sessionOnly ? await memberSession(api, organizationId) : keyed;
    const other = (parameter: string) => idsFor(route, parameter).unknown;
    const malformed = await client.request(route.method, fill(route, { [name]: bad }, other), route.request.body ? { body: {} } : {});
    expect(malformed.status, JSON.stringify(malformed.body)).toBe(404);
    expect(malformed.body.error.code).toBe('NOT_FOUND');
    // Without a body to validate first, the unknown id's whole answer is comparable. Under a company, a note's route
    // names the record it looked for (the company, or the note), so with two ids only the status and code compare.
    if (!route.request.body && idParameters(route).length === 1) expect(malformed.body).toEqual((await client.request(route.method, fill(route, { [name]: unknown }, other))).body);
  });
});

describe('an id that cannot exist, as a reference in a body', () => {
  it.each([
    ['a lead’s company', '/v1/leads', (id: string) => ({ name: 'Jo Citizen', email: 'jo@example.com', companyId: id }), 'company'],
    ['an appointment’s attendee', '/v1/appointments', (id: string, leadId: string) => ({ leadId, title: 'Visit', startsAt: '2027-03-01T09:00:00Z', endsAt: '2027-03-01T10:00:00Z', attendees: [{ userId: id }] }), 'user'],
  ] as const)('answers %s as an unknown one: the same 400', async (_, path, body, kind) => {
    const { client } = await api.organization({ demo: true });
    const lead = (await client.get('/v1/leads?limit=1')).body.leads[0];
    const unknown = await client.post(path, body(`${kind}_01ZZZZZZZZZZZZZZZZZZZZZZZZ`, lead.id));
    const malformed = await client.post(path, body(`${kind}_x`, lead.id));
    expect(unknown.status).toBe(400);
    expect(malformed.body.error.details).toEqual(unknown.body.error.details.map((detail: { message: string }) => ({ ...detail, message: detail.message.replace(`${kind}_01ZZZZZZZZZZZZZZZZZZZZZZZZ`, `${kind}_x`) })));
  });

  it('answers POST /v1/sms as an unknown user does, never 400', async () => {
    const { client } = await api.organization({ demo: true });
    const lead = (await client.get('/v1/leads?limit=1')).body.leads[0];
    const malformed = await client.post('/v1/sms', { userId: 'user_x', leadId: lead.id, message: 'Hi' });
    const unknown = await client.post('/v1/sms', { userId: 'user_01ZZZZZZZZZZZZZZZZZZZZZZZZ', leadId: lead.id, message: 'Hi' });
    expect(unknown.status).toBe(404);
    expect({ status: malformed.status, body: malformed.body }).toEqual({ status: unknown.status, body: unknown.body });
  });

  it('still answers 400 when another field is invalid too, naming every field', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/sms', { userId: 'user_x', leadId: 'lead_x', message: '' });
    expect(res.status).toBe(400);
    expect([...new Set(res.body.error.details.map((detail: { path: string }) => detail.path))].sort()).toEqual(['leadId', 'message', 'userId']);
  });
});
