import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { TTL_ATTRIBUTE } from '#shared/table';
import { useTestApi } from '../../test/support/api';
import { clientDocumentHost, consent, consentPage, cookieOf, formFieldsOf, LOOPBACK_REDIRECT, pkce, redirectedWith, registeredClient } from '../../test/support/oauth';
import { forgetClientDocuments } from './clients';
import { oauthKeys } from './entity';
import { clientDocumentHosts } from './settings';

/** What a code's exchange writes for a client, by the client's kind: registered here, or a client ID metadata document. */
const api = useTestApi();

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const token = (fields: Record<string, string>) => api.anonymous.request('POST', '/oauth/token', { rawBody: new URLSearchParams(fields).toString(), headers: FORM });
const clientItem = async (clientId: string) => (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: oauthKeys.registeredClient(clientId), ConsistentRead: true }))).Item;

/** The client consented to by a new organization's key, and its code exchanged: the exchange's answer. */
async function exchanged(clientId: string) {
  const { apiKey, client: owner } = await api.organization();
  const { verifier, challenge } = pkce();
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'xyz' });
  const code = redirectedWith(await consent(`${api.url}/oauth/authorize?${query}`, apiKey)).get('code')!;
  const res = await token({ grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (await owner.get('/v1/oauth/grants')).body.grants;
}

describe('a code exchanged', () => {
  it('for a registered client keeps its registration: the item loses its expiry', async () => {
    const clientId = await registeredClient(api);
    expect(await clientItem(clientId)).toMatchObject({ clientId, [TTL_ATTRIBUTE]: expect.any(Number) });
    expect(await exchanged(clientId)).toEqual([expect.objectContaining({ clientId, clientName: 'Test assistant' })]);
    const kept = await clientItem(clientId);
    expect(kept).toMatchObject({ clientId });
    expect(kept).not.toHaveProperty(TTL_ATTRIBUTE);
  });

  it('for a client ID metadata document writes no client item: the document is the client', async () => {
    const host = await clientDocumentHost((origin) => ({ '/client.json': { client_id: `${origin}/client.json`, client_name: 'Document client', redirect_uris: [LOOPBACK_REDIRECT] } }));
    clientDocumentHosts.allowed.add(host.hostPort);
    clientDocumentHosts.ca = host.ca;
    const clientId = `${host.origin}/client.json`;
    expect(await exchanged(clientId)).toEqual([expect.objectContaining({ clientId, clientName: 'Document client' })]);
    expect(await clientItem(clientId)).toBeUndefined();
  });
});

describe('a client ID metadata document', () => {
  it('is fetched by the consent page alone: the consent post, the exchange and the refresh trust what the page found', async () => {
    const host = await clientDocumentHost((origin) => ({ '/client.json': { client_id: `${origin}/client.json`, client_name: 'Document client', redirect_uris: [LOOPBACK_REDIRECT, 'http://127.0.0.1:40000/other'] } }));
    clientDocumentHosts.allowed.add(host.hostPort);
    clientDocumentHosts.ca = host.ca;
    const clientId = `${host.origin}/client.json`;
    const { apiKey, client: owner } = await api.organization();
    const { verifier, challenge } = pkce();
    const url = `${api.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' })}`;
    const page = await consentPage(url);
    expect(page.status).toBe(200);
    const fields: Record<string, string> = { ...formFieldsOf(await page.text()), api_key: apiKey, granted_scope: 'read', decision: 'allow' };
    expect(fields.client_name).toBe('Document client');
    expect(host.requests('/client.json')).toBe(1);
    // Kept by no container now: any later fetch would reach the host.
    forgetClientDocuments();
    const post = (posted: Record<string, string>) => fetch(`${api.url}/oauth/authorize`, { method: 'POST', redirect: 'manual', headers: { ...FORM, cookie: cookieOf(page) }, body: new URLSearchParams(posted) });
    // What the page's token covers, changed by one character, or left out: the post is not the page's.
    const { client_name: _, ...nameless } = fields;
    for (const altered of [{ ...fields, client_name: 'Document client!' }, { ...fields, client_name: 'Document clien' }, nameless, { ...fields, redirect_uri: 'http://127.0.0.1:40000/other' }]) {
      const refused = await post(altered);
      expect([refused.status, ((await refused.json()) as { error: { details: { path: string }[] } }).error.details[0]!.path]).toEqual([400, 'csrf_token']);
    }
    const code = redirectedWith(await post(fields)).get('code')!;
    const exchanged = await token({ grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId });
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token, client_id: clientId });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(host.requests('/client.json')).toBe(1);
    expect((await owner.get('/v1/oauth/grants')).body.grants).toEqual([expect.objectContaining({ clientId, clientName: 'Document client' })]);
    // A refresh naming another document's URL is refused by the token, as another registered client's id is.
    const other = await token({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, client_id: `${host.origin}/client.jsonx` });
    expect([other.status, other.body.error]).toEqual([400, 'invalid_grant']);
  });
});
