import { describe, expect, it } from 'vitest';
import { MEMBER_ROLES, roleAllows } from '#shared/member-roles';
import { routes } from './resources';
import { routesDeniedTo } from './authority';
import { ROUTES_ABOVE_MEMBER } from './route-roles';

/** API Gateway's match of a policy's execute-api resource (`*` any characters, `/` too) against a request. */
const matches = (pattern: string, request: string) => new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(request);

/** A request of a route as the gateway sees it: its method and its path with a value in each parameter. */
const requestOf = (route: { method: string; path: string }) => `${route.method}${route.path.replace(/\{\w+\}/g, 'key_01JA1B2C3D4E5F6G7H8J9K0M1N')}`;

const keyed = routes.filter((route) => route.auth !== 'none' && !route.tokenAudience);

describe('the routes a member’s session is denied, by role', () => {
  it('are generated from the route table: every keyed route above MEMBER, with the role it needs', () => {
    expect(ROUTES_ABOVE_MEMBER.map(({ method, path, role }) => `${role} ${method} ${path}`).sort()).toEqual(
      routes.filter((route) => route.auth !== 'none' && route.sessionRole !== 'MEMBER').map((route) => `${route.sessionRole} ${route.method} ${route.path}`).sort(),
    );
  });

  it.each(MEMBER_ROLES)('deny a %s exactly the routes above the role, and no route the role may call', (role) => {
    const denied = routesDeniedTo(role).map(({ method, path }) => `${method}${path}`);
    for (const route of keyed) {
      const refused = denied.some((pattern) => matches(pattern, requestOf(route)));
      expect(refused, `${role} ${route.method} ${route.path} (needs ${route.sessionRole})`).toBe(!roleAllows(role, route.sessionRole!));
    }
  });

  it('deny an ADMIN nothing, and a MEMBER more than a MANAGER', () => {
    expect(routesDeniedTo('ADMIN')).toEqual([]);
    expect(routesDeniedTo('MEMBER').length).toBeGreaterThan(routesDeniedTo('MANAGER').length);
    expect(routesDeniedTo('MANAGER').map(({ method, path }) => `${method} ${path}`)).toContain('POST /v1/webhooks');
    expect(routesDeniedTo('MANAGER').map(({ method, path }) => `${method} ${path}`)).not.toContain('POST /v1/services');
  });
});
