import { beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_ROLES, type MemberRole } from '#shared/member-roles';
import type { ApiKeyScope } from '#shared/auth/scopes';
import { createApiKey } from '#shared/auth/api-keys';
import type { RouteDefinition } from '#shared/routes/route';
import { routes } from '../functions/resources';
import { apiTools } from '../functions/mcp/built-tools';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../infra/cdk/options';
import { useTestApi, type Client } from './support/api';
import { memberSession, type SessionClient } from './support/member-session';
import { grantedByMember } from './support/oauth';

/**
 * Who may do what, as one table: every credential kind × every keyed route and every MCP tool, asserted over HTTP
 * against the local gateway with the authorizer's cache at its default (as deployed), each credential used once before
 * anything is taken away from it, so that a cached answer would let it through. The expectation is the route table's
 * (each route's method and `sessionRole`, `sessionOnly`) read here on its own terms, not the decision under test.
 */
const api = useTestApi({ authorizerCacheTtlMs: AUTHORIZER_CACHE_TTL_SECONDS.default * 1000 });

type Expected = 'ALLOWED' | 'INSUFFICIENT_SCOPE' | 'SESSION_REQUIRED' | 'UNAUTHORIZED';

interface Kind {
  name: string;
  client: Client;
  scope: ApiKeyScope;
  /** The role of the member it acts for now; null for the organization's own key. */
  role: MemberRole | null;
  session: boolean;
  /** Taken away (removed, signed out, revoked): refused everywhere. */
  gone?: true;
}

const RANK: Record<MemberRole, number> = { MEMBER: 0, MANAGER: 1, ADMIN: 2 };

/** What a scope lets through by method: read GETs, write all but DELETE, full everything. */
const scopeLets = (scope: ApiKeyScope, method: string) => scope === 'full' || (scope === 'write' ? method !== 'DELETE' : method === 'GET');

/** The MCP endpoint decides per tool: every credential reaches it. */
const decidedPerTool = (route: Pick<RouteDefinition, 'method' | 'path'>) => route.method === 'POST' && route.path === '/mcp';

function expected(kind: Omit<Kind, 'client' | 'name'>, route: Pick<RouteDefinition, 'method' | 'path' | 'sessionRole' | 'sessionOnly' | 'tokenAudience'>): Expected {
  if (kind.gone) return 'UNAUTHORIZED';
  // The MCP server's audience takes OAuth tokens and keys: a session is no credential there.
  if (route.tokenAudience && kind.session) return 'UNAUTHORIZED';
  if (decidedPerTool(route)) return 'ALLOWED';
  const roleLets = kind.role === null || RANK[kind.role] >= RANK[route.sessionRole ?? 'MEMBER'];
  if (!scopeLets(kind.scope, route.method) || !roleLets) return 'INSUFFICIENT_SCOPE';
  if (route.sessionOnly && !kind.session) return 'SESSION_REQUIRED';
  return 'ALLOWED';
}

/** What an answer says of the decision: refused (and how), or let through to whatever the route then answers. */
function decided(status: number, code: string | undefined): Expected {
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403 && (code === 'INSUFFICIENT_SCOPE' || code === 'SESSION_REQUIRED')) return code;
  return 'ALLOWED';
}

/** The routes that end the session making them: run last, each by its own kind. */
const ENDS_ITS_SESSION = new Set(['signOut', 'signOutEverywhere']);
const keyed = routes.filter((route) => route.auth !== 'none' && !ENDS_ITS_SESSION.has(route.operationId));
/** A value in each path parameter: ids of no record, so an allowed request changes nothing (400 or 404). */
const pathOf = (route: RouteDefinition) => route.path.replace(/\{\w+\}/g, 'x1');

const rpc = (method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 1, method, params });

/** An access token of a grant the member signed in to this session consents to, at `scope`. */
const grantedBy = async (session: SessionClient, scope: ApiKeyScope): Promise<string> => (await grantedByMember(api, session.token, scope)).tokens.access_token;

const kinds: Kind[] = [];
/** Grants' access tokens, which reach `/mcp` alone: their authority shows in the tools they are offered and may call. */
const grants: { name: string; client: Client; scope: ApiKeyScope; role: MemberRole; gone?: true }[] = [];

beforeAll(async () => {
  // Thousands of requests in a minute: the operator's own plan, so no usage plan's throttle answers in the decision's place.
  const { client: full, organizationId } = await api.organization({ usagePlan: 'internal' });
  const organizationKey = async (scope: ApiKeyScope) => api.as((await createApiKey(organizationId, null, `${scope} key`, scope)).token);
  const sessions = Object.fromEntries(await Promise.all(MEMBER_ROLES.map(async (role) => [role, await memberSession(api, organizationId, { role })] as const))) as Record<MemberRole, SessionClient>;
  const [demoted, removed, signedOut] = await Promise.all([memberSession(api, organizationId), memberSession(api, organizationId), memberSession(api, organizationId, { role: 'MEMBER' })]);
  /** A full key an ADMIN makes in the console: it acts for them. */
  const keyOf = async (admin: SessionClient, name: string) => {
    const made = await admin.post('/v1/api-keys', { name, scope: 'full' });
    expect(made.status).toBe(201);
    expect(made.body.key.memberId).toBe(admin.member.id);
    return made.body.key as { id: string; token: string };
  };
  const [adminKey, demotedKey, removedKey, revokedKey] = await Promise.all([keyOf(sessions.ADMIN, 'ADMIN’s integration'), keyOf(demoted, 'Demoted ADMIN’s integration'), keyOf(removed, 'Removed ADMIN’s integration'), keyOf(sessions.ADMIN, 'Revoked integration')]);
  const revokedOrganizationKey = await organizationKey('full');
  const [memberGrant, managerGrant, adminGrant, removedGrant] = await Promise.all([grantedBy(sessions.MEMBER, 'read'), grantedBy(sessions.MANAGER, 'read'), grantedBy(sessions.ADMIN, 'full'), grantedBy(removed, 'full')]);

  kinds.push(
    { name: 'organization key (read)', client: await organizationKey('read'), scope: 'read', role: null, session: false },
    { name: 'organization key (write)', client: await organizationKey('write'), scope: 'write', role: null, session: false },
    { name: 'organization key (full)', client: full, scope: 'full', role: null, session: false },
    { name: 'an ADMIN’s key', client: api.as(adminKey.token), scope: 'full', role: 'ADMIN', session: false },
    ...MEMBER_ROLES.map((role): Kind => ({ name: `session of a ${role}`, client: sessions[role], scope: 'full', role, session: true })),
    { name: 'session of an ADMIN demoted to MEMBER', client: demoted, scope: 'full', role: 'MEMBER', session: true },
    { name: 'key of an ADMIN demoted to MEMBER', client: api.as(demotedKey.token), scope: 'full', role: 'MEMBER', session: false },
    { name: 'session of a removed ADMIN', client: removed, scope: 'full', role: 'ADMIN', session: true, gone: true },
    { name: 'key of a removed ADMIN', client: api.as(removedKey.token), scope: 'full', role: 'ADMIN', session: false, gone: true },
    { name: 'session signed out', client: signedOut, scope: 'full', role: 'MEMBER', session: true, gone: true },
    { name: 'revoked ADMIN’s key', client: api.as(revokedKey.token), scope: 'full', role: 'ADMIN', session: false, gone: true },
    { name: 'revoked organization key', client: revokedOrganizationKey, scope: 'full', role: null, session: false, gone: true },
  );
  grants.push(
    { name: 'grant of a MEMBER', client: api.as(memberGrant), scope: 'read', role: 'MEMBER' },
    { name: 'grant of a MANAGER', client: api.as(managerGrant), scope: 'read', role: 'MANAGER' },
    { name: 'grant of an ADMIN', client: api.as(adminGrant), scope: 'full', role: 'ADMIN' },
    { name: 'grant of a removed ADMIN', client: api.as(removedGrant), scope: 'full', role: 'ADMIN', gone: true },
  );

  // Every credential is used once, so the gateway's cache holds an answer for each before anything is taken away.
  for (const { client } of kinds) expect((await client.get('/v1/leads')).status).toBe(200);
  for (const { client } of grants) expect((await client.post('/mcp', rpc('tools/list'))).status).toBe(200);

  // Then taken away, each the way a person does it.
  expect((await sessions.ADMIN.patch(`/v1/organization/members/${demoted.member.id}`, { role: 'MEMBER' })).status).toBe(200);
  const removal = await sessions.ADMIN.delete(`/v1/organization/members/${removed.member.id}`);
  // Its integration's key and the key its consent made for the assistant: both acted for it.
  expect([removal.status, removal.body.revokedKeyIds.length, removal.body.revokedKeyIds.includes(removedKey.id)]).toEqual([200, 2, true]);
  expect((await signedOut.delete('/v1/me/session')).status).toBe(200);
  expect((await sessions.ADMIN.delete(`/v1/api-keys/${revokedKey.id}`)).status).toBe(200);
  const revokedOrganizationKeyId = (await sessions.ADMIN.get('/v1/api-keys')).body.keys.find((key: { name: string }) => key.name === 'full key')?.id;
  expect((await sessions.ADMIN.delete(`/v1/api-keys/${revokedOrganizationKeyId}`)).status).toBe(200);
});

describe('every credential kind on every keyed route, with the cache at its default', () => {
  it('is refused or let through exactly as its scope, its member’s role now and the route’s kind say', async () => {
    const mismatches: string[] = [];
    // Kinds side by side, each kind's routes one after another.
    await Promise.all(
      kinds.map(async (kind) => {
        for (const route of keyed) {
          const answer = await kind.client.request(route.method, pathOf(route), route.method === 'GET' ? {} : { body: {} });
          const got = decided(answer.status, answer.body?.error?.code);
          const want = expected(kind, route);
          if (got !== want) mismatches.push(`${kind.name}: ${route.method} ${route.path} answered ${answer.status} ${answer.body?.error?.code ?? ''} (${got}), expected ${want}`);
        }
      }),
    );
    expect(mismatches).toEqual([]);
    expect(kinds.length * keyed.length).toBeGreaterThan(1500);
  }, 300_000);

  it('lets every live session sign itself out, and refuses a gone one', async () => {
    for (const kind of kinds.filter((one) => one.session)) {
      const answer = await kind.client.delete('/v1/me/sessions');
      expect([kind.name, answer.status]).toEqual([kind.name, kind.gone ? 401 : 200]);
      // Signed out everywhere: the very next request is refused.
      expect([kind.name, (await kind.client.get('/v1/leads')).status]).toEqual([kind.name, 401]);
    }
  });
});

describe('every grant on every MCP tool', () => {
  it('is offered exactly the tools its scope and its member’s role allow, and none once its member is removed', async () => {
    const tools = await apiTools();
    const routeOf = (tool: { method: string; path: string }) => routes.find((route) => route.method === tool.method && route.path === tool.path)!;
    for (const grant of grants) {
      const listed = await grant.client.post('/mcp?tools=all', rpc('tools/list'));
      if (grant.gone) {
        expect([grant.name, listed.status]).toEqual([grant.name, 401]);
        continue;
      }
      const offered = (listed.body.result.tools as { name: string }[]).map((tool) => tool.name).sort();
      const allowed = tools.filter((tool) => expected({ ...grant, session: false }, routeOf(tool)) !== 'INSUFFICIENT_SCOPE').map((tool) => tool.name);
      expect([grant.name, offered]).toEqual([grant.name, [...new Set(allowed)].sort()]);
    }
  });

  it('refuses every tool above the grant’s scope or its member’s role when called by name', async () => {
    const tools = await apiTools();
    const routeOf = (tool: { method: string; path: string }) => routes.find((route) => route.method === tool.method && route.path === tool.path)!;
    const mismatches: string[] = [];
    for (const grant of grants.filter((one) => !one.gone)) {
      const refused = tools.filter((tool) => expected({ ...grant, session: false }, routeOf(tool)) === 'INSUFFICIENT_SCOPE');
      if (grant.role !== 'ADMIN') expect(refused.map((tool) => tool.name)).toEqual(expect.arrayContaining(['list_audit_log', 'list_webhooks', 'list_inbound_endpoints', 'list_oauth_grants']));
      for (const tool of refused) {
        const called = await grant.client.post('/mcp', rpc('tools/call', { name: tool.name, arguments: {} }));
        const code = called.body.result?.isError ? JSON.parse(called.body.result.content[0].text).error?.code : undefined;
        if (code !== 'INSUFFICIENT_SCOPE') mismatches.push(`${grant.name}: ${tool.name} answered ${called.status} ${JSON.stringify(called.body).slice(0, 300)}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe('the roles each resource asks of a member', () => {
  it('are chosen for each resource, and docs/decisions/console.md lists them as defined', async () => {
    const { resources } = await import('../functions/resources');
    const { readFileSync } = await import('node:fs');
    const listed = [...readFileSync('docs/decisions/console.md', 'utf8').matchAll(/^\s*\| `([a-z-]+)` \| (ADMIN|MANAGER|MEMBER) \| (ADMIN|MANAGER|MEMBER) \|$/gm)].map(([, name, read, write]) => [name, read, write]);
    expect(listed).toEqual(resources.map((resource) => [resource.name, resource.sessionRoles.read ?? 'MEMBER', resource.sessionRoles.write]));
  });
});
