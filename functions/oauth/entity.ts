import type { SharedPartition } from '#shared/table';
import { organizationPartition, SAMPLE_ORGANIZATION_ID, type Collection, type Key, type KeySamples } from '#shared/store/keys';

const org = organizationPartition;

/**
 * OAuth's items. A grant and the codes and tokens issued under it belong to the organization whose API key granted
 * them; each secret is found by the SHA-256 of its value alone (gsi1, as an API key is), because the one presenting it
 * names no organization. A client registered by dynamic registration belongs to no organization: it exists before
 * anyone grants it anything, and any organization may grant it (a named exception, test/keys.test.ts).
 */
export const oauthKeys = {
  grant: (o: string, grantId: string): Key => ({ pk: org(o), sk: `OAUTHGRANT#${grantId}` }),
  grants: (o: string): Collection => ({ pk: org(o), skPrefix: 'OAUTHGRANT#' }),
  /** A code, an access token, the MCP server's token of an access token, or a refresh token, by its id. */
  secret: (o: string, secretId: string): Key => ({ pk: org(o), sk: `OAUTHSECRET#${secretId}` }),
  /** gsi1: a code or token by the hash of its value, for the token endpoint and the authorizer, which know only the value. */
  secretByHash: (hash: string) => ({ gsi1pk: `TOKEN#${hash}`, gsi1sk: 'OAUTH' }),
  /** A client registered by dynamic registration, by the id it was given: no organization's. */
  registeredClient: (clientId: string): Key => ({ pk: `OAUTHCLIENT#${clientId}`, sk: 'CLIENT' }),
} as const;

/**
 * The token endpoint's session reaches registered clients to keep the one a grant is made for (clients.ts,
 * keepRegisteredClient), in the exchange's own transaction: a client belongs to no organization.
 */
export const REGISTERED_CLIENT_KEEPS: SharedPartition = {
  keys: `${oauthKeys.registeredClient('').pk}*`,
  actions: ['UpdateItem'],
  why: 'a registered client belongs to no organization, and the exchange that makes its first grant keeps it in the same transaction',
};

const O = SAMPLE_ORGANIZATION_ID;

export const oauthKeySamples: KeySamples<typeof oauthKeys> = {
  grant: () => oauthKeys.grant(O, 'grant_1'),
  grants: () => oauthKeys.grants(O),
  secret: () => oauthKeys.secret(O, 'oat_1'),
  secretByHash: () => oauthKeys.secretByHash('abc'),
  registeredClient: () => oauthKeys.registeredClient('client_1'),
};

export const OAUTH_GRANT_ENTITY = 'OAUTH_GRANT';

/** Grants are records the audit log attributes: made at the token endpoint as the granting key, revoked by a key or by a reuse. */
export const oauthGrantAudit = { entity: OAUTH_GRANT_ENTITY, resourceType: 'oauth_grant' } as const;
export const OAUTH_SECRET_ENTITY = 'OAUTH_SECRET';
export const OAUTH_CLIENT_ENTITY = 'OAUTH_CLIENT';
