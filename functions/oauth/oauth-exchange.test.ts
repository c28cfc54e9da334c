import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { TTL_ATTRIBUTE } from '#shared/table';
import { useTestApi } from '../../test/support/api';
import { clientDocumentHost, consent, LOOPBACK_REDIRECT, pkce, redirectedWith, registeredClient } from '../../test/support/oauth';
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
