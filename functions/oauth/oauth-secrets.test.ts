import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { createApiKey } from '#shared/auth/api-keys';
import { useTestApi } from '../../test/support/api';
import { consent, LOOPBACK_REDIRECT, pkce, redirectedWith, registeredClient } from '../../test/support/oauth';
import { oauthKeys } from './entity';
import { OAUTH_LIMITS } from './settings';
import { findSecret, principalOf } from './secrets';

/**
 * An access token as the authorizer reads it (functions/oauth/secrets.ts), against DynamoDB Local: found by its value
 * only while its item is its organization's and of its kind, and acting until it or the key that granted it ends.
 */
const api = useTestApi({ clock: 'manual' });

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const ACCESS_MS = OAUTH_LIMITS.accessTokenSeconds * 1000;
const at = (ms: number) => new Date(ms).toISOString();

/** A key named `Granting` of a new organization (ending at `expiresAt` if given), and the tokens a client it granted `read` was issued now. */
async function issued(expiresAt: number | null = null) {
  const { organizationId } = await api.organization();
  const { key, token: apiKey } = await createApiKey(organizationId, expiresAt === null ? null : new Date(expiresAt), 'Granting', 'full');
  const clientId = await registeredClient(api);
  const { verifier, challenge } = pkce();
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 's', resource: `${api.url}/mcp`, scope: 'read' });
  const code = redirectedWith(await consent(`${api.url}/oauth/authorize?${query}`, apiKey)).get('code')!;
  const exchange = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId });
  const answer = await api.anonymous.request('POST', '/oauth/token', { rawBody: exchange.toString(), headers: FORM });
  expect(answer.status).toBe(200);
  const accessToken = answer.body.access_token as string;
  return { organizationId, keyId: key.keyId, clientId, accessToken, secret: (await findSecret(accessToken, 'access'))! };
}

describe('an access token, found by its value', () => {
  it('is found only while its item’s key names its organization and id, and its kind is the value’s; not by a value one character off', async () => {
    const { organizationId, accessToken, secret } = await issued();
    expect(secret).toMatchObject({ organizationId, kind: 'access', id: expect.stringMatching(/^oat_/) });
    const key = oauthKeys.secret(organizationId, secret.id);
    const set = (attribute: string, value: unknown) =>
      dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: key, UpdateExpression: 'SET #a = :v', ExpressionAttributeNames: { '#a': attribute }, ExpressionAttributeValues: { ':v': value } }));
    const elsewhere = (await api.organization()).organizationId;
    // Its attributes slipped from its key (another organization, another id) or its kind from its value's: no token.
    for (const [attribute, value] of [['organizationId', elsewhere], ['id', `${secret.id}x`], ['kind', 'refresh']] as const) {
      await set(attribute, value);
      expect(await findSecret(accessToken, 'access'), attribute).toBeUndefined();
      await set(attribute, secret[attribute]);
    }
    expect(await findSecret(accessToken, 'access')).toEqual(secret);
    const last = accessToken.at(-1) === 'A' ? 'B' : 'A';
    expect(await findSecret(`${accessToken.slice(0, -1)}${last}`, 'access')).toBeUndefined();
    expect(await findSecret(accessToken.slice(0, -1), 'access')).toBeUndefined();
  });
});

describe('what an access token acts as', () => {
  it('acts until the millisecond it expires, and not from then', async () => {
    const issuedAt = api.clock.now();
    const { secret, keyId } = await issued();
    expect(secret.expiresAt).toBe(at(issuedAt + ACCESS_MS));
    expect(await principalOf(secret, issuedAt + ACCESS_MS - 1)).toMatchObject({ keyId, grantId: secret.grantId });
    expect(await principalOf(secret, issuedAt + ACCESS_MS)).toBeUndefined();
  });

  it('ends when its token or its granting key ends, whichever is sooner: a key ending a millisecond sooner or later, or never', async () => {
    const issuedAt = api.clock.now();
    const ends = issuedAt + ACCESS_MS;
    for (const [keyEnds, endsAt] of [
      [null, ends],
      [ends - 1, ends - 1],
      [ends + 1, ends],
    ] as const) {
      const { organizationId, keyId, clientId, secret } = await issued(keyEnds);
      expect(secret.expiresAt).toBe(at(ends));
      const principal = { organizationId, memberId: null, keyId, keyName: 'Granting', scope: 'read', clientId, grantId: secret.grantId, endsAt: at(endsAt) };
      expect(await principalOf(secret, issuedAt), `a key ending ${keyEnds && at(keyEnds)}`).toEqual(principal);
      // It acts until then, and not from then.
      expect(await principalOf(secret, endsAt - 1)).toEqual(principal);
      expect(await principalOf(secret, endsAt)).toBeUndefined();
    }
  });
});
