/**
 * What an API key may do, by HTTP method: `read` only reads, `write` changes but never deletes, `full` does
 * everything (every key issued before scopes existed is `full`). The API Gateway policy the authorizer returns is
 * built from this table, so a refused request never reaches a function; docs/decisions/security.md says how scopes
 * are to grow (per resource) without changing what existing keys may do.
 */
export const API_KEY_SCOPES = ['read', 'write', 'full'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** A key stored without a scope (issued before scopes) acts as this, as every key did then. */
export const DEFAULT_SCOPE: ApiKeyScope = 'full';

export const isApiKeyScope = (value: unknown): value is ApiKeyScope => (API_KEY_SCOPES as readonly unknown[]).includes(value);

/**
 * The methods of each scope. No keyed route takes HEAD or OPTIONS (the one CORS preflight is on a public route), so
 * `read` is GET alone; `full` is every method.
 */
const METHODS: Record<Exclude<ApiKeyScope, 'full'>, readonly string[]> = {
  read: ['GET'],
  write: ['GET', 'POST', 'PUT', 'PATCH'],
};

/** Whether a key of `scope` may send `method` (upper case) to a REST route. */
export function scopeAllows(scope: ApiKeyScope, method: string): boolean {
  return scope === 'full' || METHODS[scope].includes(method.toUpperCase());
}

/**
 * Routes every scope may call, whatever their method: the MCP endpoint answers each tool call by the scope itself
 * (it hides and refuses the tools its key's scope does not allow), so the gateway lets every key reach it.
 */
export const SCOPE_CHECKED_BY_ROUTE: readonly { method: string; path: string }[] = [{ method: 'POST', path: '/mcp' }];

/**
 * The execute-api resources a key of `scope` may invoke, for the policy its authorizer answer carries: API Gateway
 * caches that policy per token and checks every later request of the token against it, so it names every method the
 * scope allows on every path (`<api>/<stage>/GET/*`), never only the method of the request that asked.
 */
export function scopeResources(methodArn: string, scope: ApiKeyScope): string[] {
  const [api = '', stage = '*'] = methodArn.split('/');
  if (scope === 'full') return [`${api}/${stage}/*/*`];
  const exempt = SCOPE_CHECKED_BY_ROUTE.filter(({ method }) => !scopeAllows(scope, method));
  return [...METHODS[scope].map((method) => `${api}/${stage}/${method}/*`), ...exempt.map(({ method, path }) => `${api}/${stage}/${method}${path}`)];
}

/** Whether some key's scope is refused a route by the gateway (403 INSUFFICIENT_SCOPE): any but GET and the scope-checking routes. */
export function someScopeRefuses(method: string, path: string): boolean {
  const exempt = SCOPE_CHECKED_BY_ROUTE.some((route) => route.method === method.toUpperCase() && route.path === path);
  return !exempt && API_KEY_SCOPES.some((scope) => !scopeAllows(scope, method));
}
