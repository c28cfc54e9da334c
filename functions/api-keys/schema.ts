import * as v from 'valibot';
import { NonEmptyString, PrefixedId, Timestamp } from '#shared/schema';
import { API_KEY_SCOPES } from '#shared/auth/scopes';

export const ApiKeyView = v.object({
  id: v.pipe(v.string(), v.description('`key_…`: the key’s id (never the key itself).')),
  name: v.nullable(v.string()),
  scope: v.picklist(API_KEY_SCOPES),
  memberId: v.pipe(
    v.nullable(v.pipe(v.number(), v.integer())),
    v.description('The member it acts for (who made it, or consented to an assistant with it): it may do what its scope and that member’s current role allow, and ends when the member is removed. Null: the organization’s own, made by its operator.'),
  ),
  createdAt: Timestamp,
  lastUsedAt: v.pipe(v.nullable(Timestamp), v.description('When a request last used it, to the minute; null: never.')),
  expiresAt: v.nullable(Timestamp),
  revokedAt: v.nullable(Timestamp),
});

export const ApiKeyList = v.object({ keys: v.array(ApiKeyView) });

export const CreateApiKeyBody = v.strictObject({
  name: v.pipe(NonEmptyString('name', 100), v.description('What it is for (“Zapier”, “website form”), shown in the list and the audit log.')),
  scope: v.optional(v.pipe(v.picklist(API_KEY_SCOPES, `scope must be one of ${API_KEY_SCOPES.join(', ')}`), v.description('`read` only GETs; `write` also changes but never deletes; `full` does everything.')), 'read'),
});

export const CreatedApiKey = v.object({
  key: v.object({ ...ApiKeyView.entries, token: v.pipe(v.string(), v.description('The key itself: shown this once, never again (only its hash is kept).')) }),
});

export const ApiKeyIdPath = v.object({ keyId: PrefixedId('key', 'keyId', { label: 'API key' }) });

export const ApiKeyRevoked = v.object({ success: v.literal(true), id: v.string() });
