import { describe, expect, it } from 'vitest';
import { API_KEY_SCOPES } from '#shared/auth/scopes';
import { MEMBER_ROLES } from '#shared/member-roles';
import { authorityOf, policyOf, refusalOf, routesDeniedTo } from './authority';
import { routes } from './resources';

const API = 'arn:aws:execute-api:ap-southeast-2:123456789012:abc123';
const ARN = `${API}/prod/GET/v1/leads`;
const RANK = { MEMBER: 0, MANAGER: 1, ADMIN: 2 } as const;
const keyed = routes.filter((route) => route.auth !== 'none');

describe('the one decision of what a credential may call', () => {
  it('refuses by scope first, then by the role the route needs, for every keyed route, scope and role', () => {
    for (const route of keyed) {
      for (const scope of API_KEY_SCOPES) {
        const scopeLets = scope === 'full' || (scope === 'write' ? route.method !== 'DELETE' : route.method === 'GET');
        const perTool = route.method === 'POST' && route.path === '/mcp';
        expect([route.operationId, scope, refusalOf({ scope, role: null }, route.method, route.path)]).toEqual([route.operationId, scope, perTool || scopeLets ? undefined : 'SCOPE']);
        for (const role of MEMBER_ROLES) {
          const roleLets = RANK[role] >= RANK[route.sessionRole ?? 'MEMBER'];
          const want = perTool ? undefined : !scopeLets ? 'SCOPE' : !roleLets ? 'ROLE' : undefined;
          expect([route.operationId, scope, role, refusalOf({ scope, role }, route.method, route.path)]).toEqual([route.operationId, scope, role, want]);
        }
      }
    }
  });

  it('reads the method in any case, and a path only as the route’s own template (a near miss is no route of a higher role)', () => {
    expect(refusalOf({ scope: 'full', role: 'MEMBER' }, 'get', '/v1/audit-log')).toBe('ROLE');
    expect(refusalOf({ scope: 'read', role: null }, 'delete', '/v1/leads/{leadId}')).toBe('SCOPE');
    expect(refusalOf({ scope: 'full', role: 'MEMBER' }, 'GET', '/v1/audit-log/')).toBeUndefined();
    expect(refusalOf({ scope: 'full', role: 'MEMBER' }, 'GET', '/v1/audit-lo')).toBeUndefined();
    expect(refusalOf({ scope: 'read', role: 'MEMBER' }, 'POST', '/mcp')).toBeUndefined();
    expect(refusalOf({ scope: 'read', role: 'MEMBER' }, 'POST', '/mcp/')).toBe('SCOPE');
    // The MCP endpoint decides per tool at its one method: another method on its path is held to the scope as any is.
    expect(refusalOf({ scope: 'read', role: null }, 'DELETE', '/mcp')).toBe('SCOPE');
  });

  it('answers the policy of scope and role: every method the scope allows, less every route above the role; an organization’s key is denied nothing', () => {
    expect(policyOf(ARN, { scope: 'full', role: null })).toEqual({ Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: [`${API}/prod/*/*`] }] });
    expect(policyOf(ARN, { scope: 'full', role: 'ADMIN' }).Statement).toHaveLength(1);
    const member = policyOf(ARN, { scope: 'read', role: 'MEMBER' });
    expect(member.Statement[0]).toEqual({ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: [`${API}/prod/GET/*`, `${API}/prod/POST/mcp`] });
    expect(member.Statement[1]).toEqual({ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: routesDeniedTo('MEMBER').map(({ method, path }) => `${API}/prod/${method}${path}`) });
    expect((member.Statement[1] as { Resource: string[] }).Resource).toContain(`${API}/prod/GET/v1/audit-log`);
    // Each path parameter a wildcard, as API Gateway matches a request's path against the policy.
    expect(routesDeniedTo('MEMBER')).toEqual(expect.arrayContaining([{ method: 'GET', path: '/v1/webhooks/*' }, { method: 'GET', path: '/v1/webhooks/*/deliveries' }]));
    expect(routesDeniedTo('MEMBER').filter(({ path }) => /[{}]/.test(path))).toEqual([]);
    // An audience-bound token's answer allows every path and denies none: each route but its own refuses it itself.
    expect(policyOf(ARN, { scope: 'read', role: 'MEMBER' }, { everywhere: true })).toEqual({ Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: [`${API}/prod/*/*`] }] });
  });

  it('reads the authority an authorizer’s context names: its role when it is one, else the organization’s own', () => {
    expect(authorityOf({ memberRole: 'MANAGER' }, 'write')).toEqual({ scope: 'write', role: 'MANAGER' });
    for (const memberRole of ['', 'OWNER', 'manager', undefined, 2]) expect(authorityOf({ memberRole }, 'read')).toEqual({ scope: 'read', role: null });
  });
});
