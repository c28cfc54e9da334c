import { roleAllows, type MemberRole } from '#shared/member-roles';
import { ROUTES_ABOVE_MEMBER } from './session-roles';

/**
 * The routes a member of `role` may not call, as execute-api resources' method and path: each path parameter a
 * wildcard (`/v1/webhooks/*`), which matches only its own routes as no two routes' paths differ only past a parameter.
 */
export const routesDeniedTo = (role: MemberRole): { method: string; path: string }[] =>
  ROUTES_ABOVE_MEMBER.filter((route) => !roleAllows(role, route.role)).map(({ method, path }) => ({ method, path: path.replace(/\{[^}]+\}/g, '*') }));
