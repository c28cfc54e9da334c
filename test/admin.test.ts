import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { freePort } from './support/ports';
import { APIGatewayClient, NotFoundException } from '@aws-sdk/client-api-gateway';
import { describe, expect, it } from 'vitest';
import { assignUsagePlan } from '../infra/admin/usage-plan-keys';
import { INBOUND_USAGE_PLANS, inboundUsageIdentifierKey, USAGE_PLANS, usageIdentifierKey } from '#shared/auth/usage-plans';
import { useTestApi } from './support/api';
import { listApiKeys } from '#shared/auth/api-keys';
import { admin, adminAt } from './support/admin-cli';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';

const api = useTestApi();

/** The organizations stored under `name`: read from the table, where a refused command must have left none. */
async function organizationsNamed(name: string): Promise<unknown[]> {
  const { Items = [] } = await dynamo.send(new ScanCommand({ TableName: config.tableName, FilterExpression: '#name = :name AND sk = :sk', ExpressionAttributeNames: { '#name': 'name' }, ExpressionAttributeValues: { ':name': name, ':sk': 'ORGANIZATION' } }));
  return Items;
}
const exec = promisify(execFile);

describe('npm run admin', () => {
  it('org create prints exactly one JSON line whose key works against the API, as the script run by npm run admin', async () => {
    // The script itself, in a process of its own: the other tests run its commands in this one.
    const { code, stdout } = await adminAt({ dynamoPort: new URL(process.env.AWS_ENDPOINT_URL_DYNAMODB!).port, tableName: process.env.TABLE_NAME! }, 'org', 'create', '--name', 'Acme Plumbing');
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const created = JSON.parse(stdout);
    expect(created).toEqual({ organizationId: expect.stringMatching(/^org_/), keyId: expect.stringMatching(/^key_/), apiKey: expect.stringMatching(/^sp_live_/) });
    const res = await api.as(created.apiKey).get('/v1/leads');
    expect(res.status).toBe(200);
    expect(res.body.totalCount).toBe(0);
  });

  it('org create names its owner: the first member, an ADMIN with the phone read as E.164, listed through the API', async () => {
    const { code, stdout } = await admin('org', 'create', '--name', 'Owned Plumbing', '--owner-name', 'Ada  Mary Lovelace', '--owner-email', 'ada@example.com', '--owner-phone', '0412 345 678');
    expect(code).toBe(0);
    const created = JSON.parse(stdout);
    expect(created.owner).toEqual({ memberId: 1, firstName: 'Ada', lastName: 'Mary Lovelace', email: 'ada@example.com', phone: '+61412345678', role: 'ADMIN' });
    const { members } = (await api.as(created.apiKey).get('/v1/organization/members')).body;
    expect(members).toEqual([expect.objectContaining({ id: 1, role: 'ADMIN', firstName: 'Ada', lastName: 'Mary Lovelace', phone: '+61412345678', user: expect.objectContaining({ email: 'ada@example.com' }) })]);
  });

  it('org create refuses an owner given in part or wrongly, naming the flag, and writes nothing', async () => {
    const owner = ['--owner-name', 'Ada Lovelace', '--owner-email', 'ada@example.com', '--owner-phone', '+61412345678'];
    const refusals: [string[], RegExp][] = [
      [owner.slice(2), /--owner-name is required with the owner's other flags/],
      [['--owner-name', 'Ada', ...owner.slice(2)], /--owner-name must be a first and a last name \(got "Ada"\)/],
      [[...owner.slice(0, 2), '--owner-email', 'ada@', ...owner.slice(4)], /--owner-email: /],
      [[...owner.slice(0, 4), '--owner-phone', 'call me'], /--owner-phone: phone must be a phone number/],
      [[...owner.slice(0, 4), '--owner-phone', '0412 345 67'], /--owner-phone must be a valid phone number/],
    ];
    for (const [flags, message] of refusals) {
      const name = `Refused ${Math.random().toString(36).slice(2)}`;
      const { code, stderr } = await admin('org', 'create', '--name', name, ...flags);
      expect([code, stderr], flags.join(' ')).toEqual([2, expect.stringMatching(message)]);
      expect(await organizationsNamed(name)).toEqual([]);
    }
  });

  it('org create --demo also lists the ids it created', async () => {
    const { code, stdout } = await admin('org', 'create', '--name', 'Demo Co', '--demo');
    expect(code).toBe(0);
    const created = JSON.parse(stdout);
    expect(created.demo.leadIds).toHaveLength(9);
    expect((await api.as(created.apiKey).get('/v1/leads')).body.totalCount).toBe(9);
  });

  it('key create, key list and key revoke manage keys without printing secrets of existing keys', async () => {
    const org = JSON.parse((await admin('org', 'create', '--name', 'Keys Co')).stdout);
    const second = JSON.parse((await admin('key', 'create', '--org', org.organizationId, '--expires-in', '30d')).stdout);
    expect(second).toMatchObject({ organizationId: org.organizationId, keyId: expect.stringMatching(/^key_/), apiKey: expect.stringMatching(/^sp_live_/) });
    expect(new Date(second.expiresAt).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    const listed = await admin('key', 'list', '--org', org.organizationId);
    expect(JSON.parse(listed.stdout).keys).toHaveLength(2);
    expect(listed.stdout).not.toContain(org.apiKey);
    expect(listed.stdout).not.toContain(second.apiKey);
    expect(listed.stdout).not.toContain('tokenHash');

    expect((await api.as(second.apiKey).get('/v1/leads')).status).toBe(200);
    const revoked = await admin('key', 'revoke', '--org', org.organizationId, '--key', second.keyId);
    // A process apart from the local server, the CLI cannot flush its cache, and says so (deployed, --api flushes the stage's).
    expect(JSON.parse(revoked.stdout)).toEqual({ organizationId: org.organizationId, keyId: second.keyId, revoked: true, note: expect.stringContaining('AUTHORIZER_CACHE_TTL') });
    expect((await api.as(second.apiKey).get('/v1/leads')).status).toBe(401);
    expect((await api.as(org.apiKey).get('/v1/leads')).status).toBe(200);
  });

  it('rotates a key: the replacement works at once and the old one ends after the overlap', async () => {
    const org = JSON.parse((await admin('org', 'create', '--name', 'Rotate Co')).stdout);
    const named = JSON.parse((await admin('key', 'create', '--org', org.organizationId, '--name', 'Zapier')).stdout);
    expect(named.name).toBe('Zapier');
    const kept = JSON.parse((await admin('key', 'rotate', '--org', org.organizationId, '--key', named.keyId)).stdout);
    expect(kept).toMatchObject({ name: 'Zapier', replaces: named.keyId, apiKey: expect.stringMatching(/^sp_live_/) });
    expect(new Date(kept.replacedKeyEndsAt).getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    expect((await api.as(named.apiKey).get('/v1/leads')).status).toBe(200);
    expect((await api.as(kept.apiKey).get('/v1/leads')).status).toBe(200);

    const now = JSON.parse((await admin('key', 'rotate', '--org', org.organizationId, '--key', kept.keyId, '--overlap', '0s')).stdout);
    expect((await api.as(kept.apiKey).get('/v1/leads')).status).toBe(401);
    expect((await api.as(now.apiKey).get('/v1/leads')).status).toBe(200);
  });

  it('key create --scopes issues a narrower key that the API holds to its scope; list shows it, rotate keeps it', async () => {
    const org = JSON.parse((await admin('org', 'create', '--name', 'Scopes Co')).stdout);
    const reader = JSON.parse((await admin('key', 'create', '--org', org.organizationId, '--name', 'Dashboard', '--scopes', 'read')).stdout);
    expect(reader).toMatchObject({ keyId: expect.stringMatching(/^key_/), name: 'Dashboard', scope: 'read' });
    expect((await api.as(reader.apiKey).get('/v1/leads')).status).toBe(200);
    const refused = await api.as(reader.apiKey).post('/v1/leads', { name: 'Nope', email: 'nope@example.com' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_SCOPE');

    const listed = JSON.parse((await admin('key', 'list', '--org', org.organizationId)).stdout).keys;
    expect(listed.map((key: { keyId: string; scope: string }) => [key.keyId, key.scope]).sort()).toEqual([[org.keyId, 'full'], [reader.keyId, 'read']].sort());

    const rotated = JSON.parse((await admin('key', 'rotate', '--org', org.organizationId, '--key', reader.keyId, '--overlap', '0s')).stdout);
    expect(rotated).toMatchObject({ name: 'Dashboard', scope: 'read', replaces: reader.keyId });
    expect((await api.as(rotated.apiKey).delete('/v1/faqs/1')).status).toBe(403);
  });

  it.each([
    [['key', 'create', '--org', 'x', '--scopes', 'admin'], '--scopes must be one of read, write, full (got "admin")'],
    [['key', 'rotate', '--org', 'x', '--key', 'key_1', '--scopes', 'read'], '--scopes is an option of key create only'],
    [['key', 'rotate', '--org', 'x'], 'No organization x in this table'],
    [['org', 'create'], '--name is required'],
    [['key', 'create'], '--org is required'],
    [['key', 'create', '--org', 'org_unknown'], 'No organization org_unknown in this table'],
    [['key', 'create', '--org', 'x', '--expires-in', 'soon'], '--expires-in must look like 30d, 12h, 15m or 90s (got "soon")'],
    [['key', 'create', '--org', 'x', '--expires-in', '0s'], '--expires-in must be a positive duration: a key that expires at once is useless (got "0s")'],
    [['key', 'revoke', '--org', 'x'], 'No organization x in this table'],
    [['frobnicate'], 'Unknown command "frobnicate"'],
    [['org', 'create', '--name', 'x', '--colour', 'red'], "Unknown option '--colour'"],
  ])('exits 2 with a message for bad arguments: %j', async (args, message) => {
    const { code, stdout, stderr } = await admin(...args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
  });

  it('says which DynamoDB it could not reach and how to start one, instead of a bare ECONNREFUSED', async () => {
    const { code, stdout, stderr } = await exec('node_modules/.bin/tsx', ['infra/admin/cli.ts', 'key', 'list', '--org', 'org_x'], {
      env: { ...process.env, AWS_ENDPOINT_URL_DYNAMODB: '', DYNAMODB_PORT: String(await freePort()), TABLE_NAME: 'nowhere' },
    }).then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^Cannot reach DynamoDB at http:\/\/localhost:\d+ \(table nowhere\)/);
    expect(stderr).toContain('npm start');
  });

  it('org plan puts an organization on a usage plan that the API enforces', async () => {
    const org = JSON.parse((await admin('org', 'create', '--name', 'Busy Co')).stdout);
    const { code, stdout } = await admin('org', 'plan', '--org', org.organizationId, '--plan', 'starter');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ organizationId: org.organizationId, usagePlan: 'starter', limits: USAGE_PLANS.starter, inboundLimits: INBOUND_USAGE_PLANS.starter });
    const statuses = await Promise.all(Array.from({ length: USAGE_PLANS.starter.burstLimit * 4 }, () => api.as(org.apiKey).get('/v1/leads').then((r) => r.status)));
    expect(statuses).toContain(429);
  });

  it('org shards spreads the counters of an organization whose totals the API then sums, and only grows', async () => {
    const org = JSON.parse((await admin('org', 'create', '--name', 'Franchise Co')).stdout);
    const raised = await admin('org', 'shards', '--org', org.organizationId, '--counter-shards', '4');
    expect(raised.code).toBe(0);
    expect(JSON.parse(raised.stdout)).toMatchObject({ organizationId: org.organizationId, counterShards: 4, takesEffect: expect.stringContaining('300 s') });
    const client = api.as(org.apiKey);
    await Promise.all(Array.from({ length: 8 }, (_, i) => client.post('/v1/leads', { name: `Caller ${i} Franchise`, email: `caller${i}@franchise.example.com` })));
    expect((await client.get('/v1/leads')).body.totalCount).toBe(8);
    const lowered = await admin('org', 'shards', '--org', org.organizationId, '--counter-shards', '2');
    expect(lowered.code).toBe(2);
    expect(lowered.stderr).toContain('only grow');
    expect((await admin('org', 'shards', '--org', org.organizationId, '--counter-shards', '17')).stderr).toContain('from 1 to 16');
  });

  it('refuses an unknown plan, and a deployed table without the API whose usage plans meter it', async () => {
    const org = JSON.parse((await admin('org', 'create', '--name', 'Plan Co')).stdout);
    const unknown = await admin('org', 'plan', '--org', org.organizationId, '--plan', 'gold');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--plan must be one of starter, standard, scale, internal');
    const missing = await admin('org', 'plan', '--org', org.organizationId);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--plan is required');
    const deployed = await admin('org', 'create', '--name', 'X', '--table', 'prod-table', '--region', 'ap-southeast-2');
    expect(deployed.code).toBe(2);
    expect(deployed.stderr).toContain('--api is required with --table');
  });
});

describe('putting an organization in a usage plan of the deployed API', () => {
  /** Records the API Gateway commands sent, answering from a small model of the account's usage plans and keys. */
  function apiGateway(existingKeyId?: string) {
    const sent: Array<{ command: string; input: any }> = [];
    const usagePlans = [
      { id: 'up-standard', name: 'SalesPipelineApi-standard', apiStages: [{ apiId: 'api123', stage: 'prod' }] },
      { id: 'up-starter', name: 'SalesPipelineApi-starter', apiStages: [{ apiId: 'api123', stage: 'prod' }] },
      { id: 'up-inbound-standard', name: 'SalesPipelineApi-inbound-standard', apiStages: [{ apiId: 'api123', stage: 'prod' }] },
      { id: 'up-inbound-starter', name: 'SalesPipelineApi-inbound-starter', apiStages: [{ apiId: 'api123', stage: 'prod' }] },
      { id: 'up-other', name: 'OtherStack-starter', apiStages: [{ apiId: 'other', stage: 'prod' }] },
    ];
    // The real SDK client, answered before anything leaves the process.
    const client = new APIGatewayClient({ region: 'ap-southeast-2', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
    client.middlewareStack.add(
      (_next, context) => async (args: any) => {
        const name = context.commandName!;
        sent.push({ command: name, input: args.input });
        const answer = (output: object) => ({ output: { $metadata: {}, ...output }, response: {} });
        if (name === 'GetUsagePlansCommand') return answer({ items: usagePlans });
        if (name === 'GetApiKeysCommand') return answer({ items: existingKeyId ? [{ id: existingKeyId, name: args.input.nameQuery }] : [] });
        if (name === 'CreateApiKeyCommand') return answer({ id: `key-new-${args.input.name}` });
        if (name === 'DeleteUsagePlanKeyCommand') throw new NotFoundException({ message: 'Invalid usage plan key', $metadata: {} });
        return answer({});
      },
      { step: 'initialize', name: 'answerLocally' },
    );
    return { client, sent };
  }

  it('creates the organization’s two keys, each valued as its usage identifier, and adds each to the plan of its meter of this API only', async () => {
    const { client, sent } = apiGateway();
    const organizationId = 'org_01JZ0000000000000000000000';
    const result = await assignUsagePlan(client, { restApiId: 'api123', organizationId, plan: 'starter' });
    const apiKeyId = `key-new-${usageIdentifierKey(organizationId)}`;
    const inboundApiKeyId = `key-new-${inboundUsageIdentifierKey(organizationId)}`;
    expect(result).toEqual({ usagePlanId: 'up-starter', apiKeyId, inboundUsagePlanId: 'up-inbound-starter', inboundApiKeyId });
    expect(sent.filter((s) => s.command === 'CreateApiKeyCommand').map((s) => s.input)).toEqual([
      expect.objectContaining({ name: organizationId, value: usageIdentifierKey(organizationId), enabled: true }),
      expect.objectContaining({ name: inboundUsageIdentifierKey(organizationId), value: inboundUsageIdentifierKey(organizationId), enabled: true }),
    ]);
    // Each key leaves the other plans of its own meter only: the API key is never put in an inbound plan, nor the reverse.
    expect(sent.filter((s) => s.command === 'DeleteUsagePlanKeyCommand').map((s) => s.input)).toEqual([
      { usagePlanId: 'up-standard', keyId: apiKeyId },
      { usagePlanId: 'up-inbound-standard', keyId: inboundApiKeyId },
    ]);
    expect(sent.filter((s) => s.command === 'CreateUsagePlanKeyCommand').map((s) => s.input)).toEqual([
      { usagePlanId: 'up-starter', keyId: apiKeyId, keyType: 'API_KEY' },
      { usagePlanId: 'up-inbound-starter', keyId: inboundApiKeyId, keyType: 'API_KEY' },
    ]);
  });

  it('moves an existing key between plans without making another', async () => {
    const { client, sent } = apiGateway('key-existing');
    await assignUsagePlan(client, { restApiId: 'api123', organizationId: 'org_01JZ0000000000000000000000', plan: 'standard' });
    expect(sent.map((s) => s.command)).not.toContain('CreateApiKeyCommand');
    expect(sent.filter((s) => s.command === 'CreateUsagePlanKeyCommand').map((s) => s.input.usagePlanId)).toEqual(['up-standard', 'up-inbound-standard']);
  });

  it('names the plan it could not find instead of guessing', async () => {
    const { client } = apiGateway();
    await expect(assignUsagePlan(client, { restApiId: 'api123', organizationId: 'org_01JZ0000000000000000000000', plan: 'scale' })).rejects.toThrow('API api123 has no usage plan "scale"');
  });
});

describe('admin CLI: durations too long for a date', () => {
  // README: "bad arguments print usage and exit with code 2"; 999999999d (about 2.7 million years) is no date.
  it('key create --expires-in 999999999d exits 2 naming --expires-in, and issues no key', async () => {
    const { organizationId } = await api.organization();
    const { code, stdout, stderr } = await admin('key', 'create', '--org', organizationId, '--expires-in', '999999999d');
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain('--expires-in');
    expect(await listApiKeys(organizationId)).toHaveLength(1);
  });

  it('key rotate --overlap 999999999d exits 2 naming --overlap, and leaves no replacement key whose secret was never shown', async () => {
    const { organizationId, keyId } = await api.organization();
    const { code, stdout, stderr } = await admin('key', 'rotate', '--org', organizationId, '--key', keyId, '--overlap', '999999999d');
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain('--overlap');
    // Nothing printed the replacement's token, so a key written anyway is a full key nobody can use or identify.
    expect((await listApiKeys(organizationId)).map((key) => key.keyId)).toEqual([keyId]);
  });
});
