import { describe, expect, it } from 'vitest';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { AUDIENCE_BOUND } from '#shared/auth/tokens';
import { scopeResources } from '#shared/auth/scopes';
import { handler as authorizer } from '../authorizer';
import { organizationKeys } from '../organization/entity';
import { useTestApi } from '../../test/support/api';
import { commandsSentBy } from '../../test/support/dynamo-calls';
import { consent, LOOPBACK_REDIRECT, pkce, redirectedWith, registeredClient } from '../../test/support/oauth';
import { mcpTokenOf, findSecret } from './secrets';
import { unauthorizedChallenge } from './metadata';

/**
 * The API key authorizer's answer for the tokens OAuth issues, called as API Gateway calls it: the policy it allows,
 * the context it hands the function, and what it refuses. (The local gateway does not evaluate a policy's resources,
 * so only these tests see them.)
 */
const api = useTestApi();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const ARN = 'arn:aws:execute-api:ap-southeast-2:123456789012:abc123/prod';

/** A grant made with a new organization's key for `scope`: its access and refresh tokens. */
async function granted(scope = 'read') {
  const organization = await api.organization();
  const clientId = await registeredClient(api);
  const { verifier, challenge } = pkce();
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: `${api.url}/mcp`, scope });
  const code = redirectedWith(await consent(`${api.url}/oauth/authorize?${query}`, organization.apiKey, { scope })).get('code')!;
  const fields = { grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId };
  const res = await api.anonymous.request('POST', '/oauth/token', { rawBody: new URLSearchParams(fields).toString(), headers: FORM });
  expect(res.status).toBe(200);
  const tokens = res.body as { access_token: string; refresh_token: string };
  return { ...organization, clientId, ...tokens };
}

/** API Gateway's event for `token` on `method path`, sent to the local server's host. */
const eventOf = (token: string, method: string, path: string) =>
  ({ type: 'REQUEST', methodArn: `${ARN}/${method}${path}`, headers: { Authorization: `Bearer ${token}`, Host: new URL(api.url).host } }) as never;

describe("the authorizer's answer for an access token", () => {
  it('on POST /mcp: every path of the stage allowed (a cached answer must not turn a REST route into a 403), the MCP token and challenge in the context', async () => {
    const grant = await granted('write');
    const secret = (await findSecret(grant.access_token, 'access'))!;
    const result = await authorizer(eventOf(grant.access_token, 'POST', '/mcp'));
    expect(result.principalId).toMatch(/^key_/);
    expect(result.policyDocument).toEqual({ Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: [`${ARN}/*/*`] }] });
    expect(result.context).toEqual({
      organizationId: grant.organizationId,
      keyId: result.principalId,
      keyName: '',
      scope: 'write',
      // Granted with an organization's own key: it acts for no member, so no role holds it.
      memberId: '',
      memberRole: '',
      // The access token's own end: the functions refuse it from then, whatever the gateway cached.
      endsAt: secret.expiresAt,
      counterShards: 1,
      clientId: grant.clientId,
      mcpToken: mcpTokenOf(grant.access_token, secret.salt ?? ''),
      [AUDIENCE_BOUND]: true,
      challenge: unauthorizedChallenge(api.url),
    });
    expect(result.usageIdentifierKey).toBe(grant.organizationId);
  });

  it('anywhere but POST /mcp: Unauthorized, before any read (a near miss in method or path as well)', async () => {
    const grant = await granted();
    for (const [method, path] of [['GET', '/v1/leads'], ['GET', '/mcp'], ['POST', '/mcp/'], ['POST', '/mcpx'], ['POST', '/v1/mcp']]) {
      const calls = await commandsSentBy(() => expect(authorizer(eventOf(grant.access_token, method!, path!)), `${method} ${path}`).rejects.toThrow('Unauthorized'));
      expect(calls, `${method} ${path}`).toEqual([]);
    }
  });

  it('bound to another server (the request came to another host): Unauthorized', async () => {
    const grant = await granted();
    const elsewhere = { type: 'REQUEST', methodArn: `${ARN}/POST/mcp`, headers: { authorization: `Bearer ${grant.access_token}`, host: 'other.example.com' } } as never;
    await expect(authorizer(elsewhere)).rejects.toThrow('Unauthorized');
  });

  it('unknown, one character more, or one less: Unauthorized', async () => {
    const grant = await granted();
    for (const token of [`${grant.access_token}A`, grant.access_token.slice(0, -1), `sp_oat_${'A'.repeat(43)}`]) {
      await expect(authorizer(eventOf(token, 'POST', '/mcp')), token).rejects.toThrow('Unauthorized');
    }
  });

  it("of an organization whose record is gone: Unauthorized, as the organization's keys are", async () => {
    const grant = await granted();
    await dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: organizationKeys.organization(grant.organizationId) }));
    await expect(authorizer(eventOf(grant.access_token, 'POST', '/mcp'))).rejects.toThrow('Unauthorized');
  });

  it('when any read it makes fails (each in turn): an error other than Unauthorized, so API Gateway answers 503, not 401', async () => {
    const grant = await granted();
    const reads = await commandsSentBy(() => authorizer(eventOf(grant.access_token, 'POST', '/mcp')));
    // The token (by its hash), then its grant and key, the grant's last use, and the organization's settings.
    expect(reads).toEqual(['QueryCommand', 'GetItemCommand', 'GetItemCommand', 'UpdateItemCommand', 'GetItemCommand']);
    for (const [failing, command] of reads.entries()) {
      let answer: unknown;
      await commandsSentBy(async () => void (answer = await authorizer(eventOf(grant.access_token, 'POST', '/mcp')).catch((error: Error) => error)), failing);
      // The grant's last use is bookkeeping: its failure is ignored, and the token still allowed.
      if (command === 'UpdateItemCommand') expect(answer, `${failing}: ${command}`).toMatchObject({ principalId: expect.stringMatching(/^key_/) });
      else expect(String(answer), `${failing}: ${command}`).toMatch(/^Error: The OAuth token store could not be read$/);
    }
  });
});

describe("the authorizer's answer for the MCP server's own token", () => {
  it("on a REST route: what the grant's scope allows, with no MCP token or audience in the context", async () => {
    const grant = await granted('read');
    const secret = (await findSecret(grant.access_token, 'access'))!;
    const mcpToken = mcpTokenOf(grant.access_token, secret.salt ?? '');
    const result = await authorizer(eventOf(mcpToken, 'GET', '/v1/leads'));
    const resources = (result.policyDocument.Statement[0] as { Resource: string[] }).Resource;
    // A read grant's: the read methods everywhere, never the stage's every method.
    expect(resources).toEqual(scopeResources(`${ARN}/GET/v1/leads`, 'read'));
    expect(resources).toContain(`${ARN}/GET/*`);
    expect(resources).not.toContain(`${ARN}/*/*`);
    expect(result.context).toEqual({ organizationId: grant.organizationId, keyId: result.principalId, keyName: '', scope: 'read', memberId: '', memberRole: '', endsAt: expect.stringMatching(/^\d{4}-/), counterShards: 1, clientId: grant.clientId });
  });
});

describe("the authorizer's answer for a refresh token or a code", () => {
  it('Unauthorized on every route: only the token endpoint takes them', async () => {
    const grant = await granted();
    for (const [method, path] of [['POST', '/mcp'], ['GET', '/v1/leads']]) {
      await expect(authorizer(eventOf(grant.refresh_token, method!, path!)), `${method} ${path}`).rejects.toThrow('Unauthorized');
    }
  });
});
