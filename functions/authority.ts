import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { isMemberRole, roleAllows, type MemberRole } from '#shared/member-roles';
import { SCOPE_CHECKED_BY_ROUTE, scopeAllows, scopeResources, type ApiKeyScope } from '#shared/auth/scopes';
import { ROUTES_ABOVE_MEMBER } from './route-roles';

/**
 * What a credential may do: its scope, and the current role of the member it acts for. Every credential acts for
 * someone: an API key an ADMIN made, an OAuth grant, a session and a passkey for a member; an operator's key (the admin
 * CLI's) for the organization itself, held to its scope alone. One decision for every kind, REST and MCP alike: the
 * authorizer's policy is built from it (the gateway refuses the rest 403 before any function runs), and the MCP server
 * offers and calls its tools by it. It reads nothing: the authorizer reads the member's role (./authorizer-answer.ts).
 */
export interface Authority {
  scope: ApiKeyScope;
  /** The role of the member the credential acts for, as stored now; null for the organization's own. */
  role: MemberRole | null;
}

/** Why a route is refused to an authority: its scope, or its member's role. */
export type Refusal = 'SCOPE' | 'ROLE';

/** The routes whose function decides per operation (the MCP endpoint, per tool, by this same decision). */
const checkedByRoute = (method: string, path: string) => SCOPE_CHECKED_BY_ROUTE.some((route) => route.method === method && route.path === path);

/** The least role a route needs (the generated table), MEMBER when it names none. */
const roleNeeded = (method: string, path: string): MemberRole => ROUTES_ABOVE_MEMBER.find((route) => route.method === method && route.path === path)?.role ?? 'MEMBER';

/** Whether `authority` may call the route at `method` and `path` (its template, `/v1/leads/{leadId}`): undefined, or why not. */
export function refusalOf(authority: Authority, method: string, path: string): Refusal | undefined {
  const asked = method.toUpperCase();
  if (checkedByRoute(asked, path)) return undefined;
  if (!scopeAllows(authority.scope, asked)) return 'SCOPE';
  if (authority.role !== null && !roleAllows(authority.role, roleNeeded(asked, path))) return 'ROLE';
  return undefined;
}

/**
 * The routes above a role, as execute-api resources' method and path: each path parameter a wildcard
 * (`/v1/webhooks/*`), which matches only its own routes as no two routes' paths differ only past a parameter.
 */
export const routesDeniedTo = (role: MemberRole): { method: string; path: string }[] =>
  ROUTES_ABOVE_MEMBER.filter((route) => !roleAllows(role, route.role)).map(({ method, path }) => ({ method, path: path.replace(/\{[^}]+\}/g, '*') }));

/**
 * The policy of an authorizer answer: every method the scope allows on every path, less every route above the member's
 * role. API Gateway caches it per token and checks each later request against it, so it names all the credential may
 * do, never only what this request asked. `everywhere`: an audience-bound token's, allowed every path so that each
 * route but its own refuses it 401 itself (shared/auth/tokens.ts, AUDIENCE_BOUND).
 */
export function policyOf(methodArn: string, authority: Authority, { everywhere = false } = {}): APIGatewayAuthorizerResult['policyDocument'] {
  const [api = '', stage = '*'] = methodArn.split('/');
  const denied = everywhere || authority.role === null ? [] : routesDeniedTo(authority.role).map(({ method, path }) => `${api}/${stage}/${method}${path}`);
  return {
    Version: '2012-10-17',
    Statement: [
      { Action: 'execute-api:Invoke', Effect: 'Allow', Resource: everywhere ? [`${api}/${stage}/*/*`] : scopeResources(methodArn, authority.scope) },
      ...(denied.length ? [{ Action: 'execute-api:Invoke', Effect: 'Deny' as const, Resource: denied }] : []),
    ],
  };
}

/** The authority the authorizer's context names (API Gateway hands every value on as text): what the MCP server decides its tools by. */
export function authorityOf(context: Readonly<Record<string, unknown>>, scope: ApiKeyScope): Authority {
  return { scope, role: isMemberRole(context.memberRole) ? context.memberRole : null };
}
