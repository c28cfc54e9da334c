import { API_KEY_SCOPES, type ApiKeyScope } from '#shared/auth/scopes';

/**
 * How OAuth compares scopes: by their rank in API_KEY_SCOPES, the one list of them, narrowest first (read < write <
 * full), each allowing every method the one before it does (functions/oauth/oauth-consent.test.ts holds the order to
 * the methods). A grant never exceeds its key, and a token acts within the narrower of its grant and its key.
 */
const RANK = new Map<ApiKeyScope, number>(API_KEY_SCOPES.map((scope, rank) => [scope, rank]));
const rankOf = (scope: ApiKeyScope): number => RANK.get(scope)!;

/** Whether `scope` allows everything `other` does. */
export const covers = (scope: ApiKeyScope, other: ApiKeyScope): boolean => rankOf(scope) >= rankOf(other);

/** Whether a key of `key` scope may grant `asked`. */
export const mayGrant = (key: ApiKeyScope, asked: ApiKeyScope): boolean => covers(key, asked);

/** The narrower of two scopes. */
export const narrowerScope = (a: ApiKeyScope, b: ApiKeyScope): ApiKeyScope => (covers(b, a) ? a : b);
