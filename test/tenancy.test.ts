import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { runSimulation } from '@cloud-copilot/iam-simulate';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { grantedActions, routeId } from '#shared/routes/route';
import { ORGANIZATION_TAG, ownTableStatements, routeSessionPolicy, sessionCapabilitiesOf, sessionGrantOf, sharedPartitionsOf, tableLocationOf, TENANT_DATA_ACTIONS, tenantDataPolicy, type PolicyDocument } from '#shared/tenancy/policies';
import { keyringsFromEnvironment, kmsClientsSigningWith, open, seal, SecretNotOpened, sealingWith } from '#shared/envelope-encryption';
import { keyUseStatements, opensSecrets, sealsSecrets } from '#shared/sealing-key';
import { SERVICE_ROLE_PATH } from '#shared/iam';
import { SMS_NUMBER_CLAIMS } from '../functions/organization/entity';
import { CREDENTIAL_CLAIMS } from '../functions/sign-in/entity';
import { REGISTERED_CLIENT_KEEPS } from '../functions/oauth/entity';
import { smsSender } from '../functions/sms/capability';
import { actingFor, sessionEvent, type TenantSession } from '#shared/tenancy/session';
import { metrics } from '#shared/metrics';
import { METRIC } from '#shared/observability';
import { isTransientStoreError } from '#shared/store/transient';
import { MAX_SESSIONS, REFRESH_BEFORE_MS, requestCredentials, SESSION_SECONDS, tenantCredentials, tenantDeploymentOf } from '#shared/tenancy/credentials';
import { routes } from '../functions/resources';
import { AccessDeniedLocally, allows, duringRoute, duringWorker, forgetDecisions, installStrictAccess, keptDecisions, recordAwsCalls, tenantPrincipal, tenantRefusal } from '../infra/local/strict-access';
import { keyRequestOf, LOCAL_ACCOUNT, localTableArn, type IamRequest } from '../infra/local/aws-calls';
import { useTestApi } from './support/api';
import { startLocalSts } from './support/local-sts';
import { startLocalKms } from './support/local-kms';

/**
 * The second wall between organizations (docs/decisions/tenancy.md): a keyed route's calls are signed for its
 * organization, with a policy that allows only that organization's keys and the route's own actions.
 */
const api = useTestApi();
const TABLE = localTableArn('sales-pipeline');
// Each test's calls are evaluated afresh, not answered from the decisions an earlier test left (infra/local/strict-access.ts).
beforeEach(() => forgetDecisions());

/** IAM's decision, by the validated simulation, for a session of `organization` under one identity policy. */
async function decision(policy: PolicyDocument, action: string, resource: string, leadingKeys: string[], organization = 'org_a'): Promise<string> {
  const result = await runSimulation(
    {
      request: {
        principal: tenantPrincipal(organization),
        action,
        resource: { resource, accountId: LOCAL_ACCOUNT },
        contextVariables: { 'dynamodb:LeadingKeys': leadingKeys, [`aws:PrincipalTag/${ORGANIZATION_TAG}`]: organization },
      },
      identityPolicies: [{ name: 'policy', policy }],
      serviceControlPolicies: [],
      resourceControlPolicies: [],
    },
    {},
  );
  if (result.resultType === 'error') throw new Error(JSON.stringify(result.errors));
  return result.overallResult;
}

describe("the tenant-data role's policy", () => {
  const policy = tenantDataPolicy(TABLE, sharedPartitionsOf(routes));

  it("allows the session's own partition and those under it, on the table and on any index", async () => {
    for (const keys of [['ORG#org_a'], ['ORG#org_a#LEAD#lead_1'], ['ORG#org_a#INQUIRY#inq_1', 'ORG#org_a']]) {
      expect(await decision(policy, 'dynamodb:Query', TABLE, keys), keys.join()).toBe('Allowed');
      expect(await decision(policy, 'dynamodb:Query', `${TABLE}/index/gsi2`, keys), keys.join()).toBe('Allowed');
    }
  });

  it('refuses another organization, one whose id starts with the session’s (one character more), a near prefix, and a mix', async () => {
    for (const keys of [['ORG#org_b'], ['ORG#org_b#LEAD#lead_1'], ['ORG#org_ab'], ['ORG#org_ab#LEAD#1'], ['ORG#org_'], ['ORG#org_a_'], ['ORGorg_a'], ['xORG#org_a'], ['OAUTHCLIENT#client_1'], ['ORG#org_a', 'ORG#org_b']]) {
      expect(await decision(policy, 'dynamodb:GetItem', TABLE, keys), keys.join()).toBe('ImplicitlyDenied');
      expect(await decision(policy, 'dynamodb:Query', `${TABLE}/index/gsi1`, keys), keys.join()).toBe('ImplicitlyDenied');
    }
  });

  it('never allows an action that names no key: a Scan or a statement would pass a condition on an empty key set', async () => {
    expect(TENANT_DATA_ACTIONS.map(String)).not.toEqual(expect.arrayContaining(['Scan']));
    expect(TENANT_DATA_ACTIONS.some((action) => /Scan|Statement|PartiQL/.test(action))).toBe(false);
    for (const action of ['dynamodb:Scan', 'dynamodb:PartiQLSelect', 'dynamodb:DescribeTable']) expect(await decision(policy, action, TABLE, []), action).toBe('ImplicitlyDenied');
    // As AWS does, an action the policy lists with no keys at all passes the condition: hence none may be listed.
    expect(await decision(policy, 'dynamodb:Query', TABLE, [])).toBe('Allowed');
  });

  it('allows a named shared partition only its own actions, on the table alone: the SMS number claim, a passkey’s credential claim, a registered client’s keep', async () => {
    expect(sharedPartitionsOf(routes)).toEqual([SMS_NUMBER_CLAIMS, CREDENTIAL_CLAIMS, REGISTERED_CLIENT_KEEPS]);
    expect(await decision(policy, 'dynamodb:UpdateItem', TABLE, ['OAUTHCLIENT#client_x'])).toBe('Allowed');
    for (const action of ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem']) expect(await decision(policy, action, TABLE, ['OAUTHCLIENT#client_x']), action).toBe('ImplicitlyDenied');
    expect(await decision(policy, 'dynamodb:UpdateItem', TABLE, ['OAUTHCLIENT'])).toBe('ImplicitlyDenied');
    for (const action of ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem']) expect(await decision(policy, action, TABLE, ['SMSNUMBER#+61400000000']), action).toBe('Allowed');
    expect(await decision(policy, 'dynamodb:UpdateItem', TABLE, ['SMSNUMBER#+61400000000'])).toBe('ImplicitlyDenied');
    expect(await decision(policy, 'dynamodb:Query', `${TABLE}/index/gsi1`, ['SMSNUMBER#+61400000000'])).toBe('ImplicitlyDenied');
    expect(await decision(policy, 'dynamodb:PutItem', TABLE, ['SMSNUMBER'])).toBe('ImplicitlyDenied');
    for (const action of ['dynamodb:PutItem', 'dynamodb:DeleteItem']) expect(await decision(policy, action, TABLE, ['CREDENTIAL#AAAA']), action).toBe('Allowed');
    for (const action of ['dynamodb:GetItem', 'dynamodb:UpdateItem']) expect(await decision(policy, action, TABLE, ['CREDENTIAL#AAAA']), action).toBe('ImplicitlyDenied');
  });

  it('is on another table, or an index the table does not have, nothing', async () => {
    expect(await decision(policy, 'dynamodb:GetItem', localTableArn('other'), ['ORG#org_a'])).toBe('ImplicitlyDenied');
    // Every index by name: one the table does not have is not covered.
    expect(await decision(policy, 'dynamodb:Query', `${TABLE}/index/gsi9`, ['ORG#org_a'])).toBe('ImplicitlyDenied');
  });
});

describe("a route's session policy", () => {
  it('names its actions sorted and once, and the table alone when the route queries no index', () => {
    const policy = routeSessionPolicy({ actions: ['Query', 'GetItem', 'Query', 'DeleteItem'] }, TABLE, 'org_a');
    expect(policy.Statement).toEqual([
      { Effect: 'Allow', Action: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:Query'], Resource: [TABLE], Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ORG#org_a', 'ORG#org_a#*'] } } },
    ]);
    expect(ownTableStatements({ actions: ['UpdateItem', 'GetItem', 'GetItem'] }, TABLE)).toEqual([
      { Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], Resource: [TABLE], Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ORG#*'] } } },
    ]);
  });
});

describe("a function's own role on the table", () => {
  it('gives each key pattern the actions named for it, one statement per set of actions, and every action to a pattern named alone', () => {
    const grant = { actions: ['UpdateItem', 'GetItem', 'DeleteItem', 'PutItem'] as const, keys: ['SOURCELIMIT#*', { keys: 'SIGNIN#*', actions: ['GetItem', 'DeleteItem'] as const }, { keys: 'ORG#*', actions: ['PutItem', 'GetItem'] as const }, { keys: 'MEMBER#*', actions: ['DeleteItem', 'GetItem'] as const }] };
    const statement = (actions: string[], patterns: string[]) => ({ Effect: 'Allow', Action: actions.map((action) => `dynamodb:${action}`), Resource: [TABLE], Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns } } });
    expect(ownTableStatements(grant, TABLE)).toEqual([
      statement(['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'], ['SOURCELIMIT#*']),
      statement(['DeleteItem', 'GetItem'], ['SIGNIN#*', 'MEMBER#*']),
      statement(['GetItem', 'PutItem'], ['ORG#*']),
    ]);
  });

  it('refuses a pattern named with an action the function does not have', () => {
    expect(() => ownTableStatements({ actions: ['GetItem'], keys: [{ keys: 'SIGNIN#*', actions: ['GetItem', 'DeleteItem'] }] }, TABLE)).toThrow('SIGNIN#*: DeleteItem is not among the function\'s actions (GetItem)');
  });

  it("takes from a route's capabilities only those that act for its organization, and from a public route none", () => {
    const withNone = { method: 'GET' as const, dynamodb: ['GetItem' as const] };
    expect(sessionGrantOf(withNone)).toEqual({ actions: ['GetItem'], indexes: undefined, sharedPartitions: undefined });
    expect(sessionGrantOf({ ...withNone, capabilities: [smsSender, opensSecrets] }).capabilities).toEqual([opensSecrets]);
    expect(sessionCapabilitiesOf([{ auth: 'none', capabilities: [opensSecrets] }, { capabilities: [smsSender] }])).toEqual([]);
    expect(sessionCapabilitiesOf([{ auth: 'none', capabilities: [opensSecrets] }, { capabilities: [sealsSecrets, opensSecrets] }, { capabilities: [opensSecrets] }])).toEqual([sealsSecrets, opensSecrets]);
    expect(sharedPartitionsOf([{ auth: 'none', sharedPartitions: [SMS_NUMBER_CLAIMS] }])).toEqual([]);
  });

  it("reads the table's place from its ARN, in any partition", () => {
    expect(tableLocationOf('arn:aws-cn:dynamodb:cn-north-1:123456789012:table/pipeline-2')).toEqual({ partition: 'aws-cn', region: 'cn-north-1', account: '123456789012', tableName: 'pipeline-2' });
  });

  it("allows the route's own actions on the table and the indexes it queries, on its organization's keys, and nothing else", async () => {
    const policy = routeSessionPolicy({ actions: ['GetItem', 'Query'], indexes: ['gsi1'] }, TABLE, 'org_a');
    expect(await decision(policy, 'dynamodb:GetItem', TABLE, ['ORG#org_a'])).toBe('Allowed');
    expect(await decision(policy, 'dynamodb:Query', `${TABLE}/index/gsi1`, ['ORG#org_a#LEADS'])).toBe('Allowed');
    expect(await decision(policy, 'dynamodb:Query', `${TABLE}/index/gsi2`, ['ORG#org_a'])).toBe('ImplicitlyDenied');
    expect(await decision(policy, 'dynamodb:PutItem', TABLE, ['ORG#org_a'])).toBe('ImplicitlyDenied');
    for (const keys of [['ORG#org_b'], ['ORG#org_ab'], ['SMSNUMBER#+61400000000']]) expect(await decision(policy, 'dynamodb:GetItem', TABLE, keys), keys.join()).toBe('ImplicitlyDenied');
  });

  it('allows a shared partition only to a route that names it, and only its actions', async () => {
    const named = routeSessionPolicy({ actions: ['GetItem', 'PutItem', 'UpdateItem'], sharedPartitions: [SMS_NUMBER_CLAIMS] }, TABLE, 'org_a');
    expect(await decision(named, 'dynamodb:PutItem', TABLE, ['SMSNUMBER#+61400000000'])).toBe('Allowed');
    expect(await decision(named, 'dynamodb:UpdateItem', TABLE, ['SMSNUMBER#+61400000000'])).toBe('ImplicitlyDenied');
    const unnamed = routeSessionPolicy({ actions: ['GetItem', 'PutItem'] }, TABLE, 'org_a');
    expect(await decision(unnamed, 'dynamodb:PutItem', TABLE, ['SMSNUMBER#+61400000000'])).toBe('ImplicitlyDenied');
  });

  it('fits AssumeRole’s limit for every route (2 048 characters)', () => {
    for (const route of routes) {
      const policy = JSON.stringify(routeSessionPolicy(sessionGrantOf(route), 'arn:aws:dynamodb:ap-southeast-2:123456789012:table/sales-pipeline', 'org_01M8DQ32GS6439BMGSP0GMXYS2'));
      expect(policy.length, route.operationId).toBeLessThanOrEqual(2048);
    }
  });
});

describe("a keyed request's calls", () => {
  it("are each signed for the key's organization, with the route's grant, and allowed only for it", async () => {
    const a = await api.organization();
    const b = await api.organization();
    const recorded = await recordAwsCalls(async () => {
      const lead = await a.client.post('/v1/leads', { name: 'Ada Tenant', email: 'ada@example.com' });
      expect(lead.status).toBe(201);
      expect((await a.client.get(`/v1/leads/${lead.body.lead.id}`)).status).toBe(200);
      expect((await a.client.get('/v1/leads?status=NEW')).status).toBe(200);
    });
    const routed = recorded.filter((call) => call.route);
    expect(routed.map((call) => call.route)).toEqual(expect.arrayContaining(['createLead', 'getLead', 'listLeads']));
    for (const call of routed) {
      expect(call.session?.organizationId, call.route).toBe(a.organizationId);
      const route = routes.find((candidate) => candidate.operationId === call.route)!;
      expect(call.session?.grant, call.route).toEqual({ actions: grantedActions(route), indexes: route.indexes, sharedPartitions: route.sharedPartitions });
      expect(call.session?.grantName).toBe(routeId(route));
      for (const request of call.requests) {
        expect(tenantRefusal(request, call.session!, localTableArn(config.tableName)), `${call.route} ${request.action}`).toBeUndefined();
        expect(tenantRefusal(request, { ...call.session!, organizationId: b.organizationId }, localTableArn(config.tableName)), `${call.route} ${request.action} as another organization`).toMatch(/tenant-data role's policy does not allow/);
      }
    }
    // Every item of the create's transaction is its own request, each with its own key.
    const transaction = routed.find((call) => call.route === 'createLead' && call.requests.length > 1)!;
    expect(transaction.requests.every((request) => request.leadingKeys.length === 1 && request.leadingKeys[0]!.startsWith(`ORG#${a.organizationId}`))).toBe(true);
  });

  it("are decided once for every organization alike, and a decision kept for one never lets another reach it", async () => {
    const a = await api.organization();
    const b = await api.organization();
    const recorded = await recordAwsCalls(async () => {
      const lead = await a.client.post('/v1/leads', { name: 'Ada Kept', email: 'ada.kept@example.com' });
      expect((await a.client.get(`/v1/leads/${lead.body.lead.id}`)).status).toBe(200);
    });
    const calls = recorded.filter((call) => call.route).flatMap((call) => call.requests.map((request) => ({ request, session: call.session! })));
    expect(new Set(calls.map(({ session }) => session.grantName))).toEqual(new Set(['CreateLead', 'GetLead']));
    const table = localTableArn(config.tableName);
    // The same calls as organization b makes them: its ids where a's were.
    const asB = (request: IamRequest): IamRequest => JSON.parse(JSON.stringify(request).split(a.organizationId).join(b.organizationId));
    forgetDecisions();
    for (const { request, session } of calls) expect(tenantRefusal(request, session, table)).toBeUndefined();
    const kept = keptDecisions();
    // One decision of the role's policy and one of the session's for each kind of call: its route, its action, and its
    // key the organization's partition or one under it.
    const kinds = new Set(calls.map(({ request, session }) => `${session.grantName} ${request.action} ${request.leadingKeys.map((key) => (key === `ORG#${a.organizationId}` ? 'partition' : 'under')).join()}`));
    expect(kept).toBe(2 * kinds.size);
    for (const { request, session } of calls) expect(tenantRefusal(asB(request), { ...session, organizationId: b.organizationId }, table)).toBeUndefined();
    expect(keptDecisions(), "b's calls answered by a's decisions").toBe(kept);
    // a's calls made by b's session, and b's made by a's, are each refused, after both were allowed and kept.
    for (const { request, session } of calls) {
      expect(tenantRefusal(request, { ...session, organizationId: b.organizationId }, table)).toMatch(/tenant-data role's policy does not allow/);
      expect(tenantRefusal(asB(request), session, table)).toMatch(/tenant-data role's policy does not allow/);
    }
  });

  it("keeps one decision for a secret of any item a session not for one item seals, and refuses a session for one item another's, after allowing its own", () => {
    const organizationId = 'org_01KEPTDECISIONSAAAAAAAAAAA';
    const table = localTableArn(config.tableName);
    const webhook = routes.find((route) => route.operationId === 'createWebhook')!;
    const inbound = routes.find((route) => route.operationId === 'receiveInbound')!;
    const secret = (itemId: string) => keyRequestOf({ action: 'kms:GenerateDataKey', encryptionContext: { organizationId, itemId, attribute: 'secrets' } }, config.tableName);
    forgetDecisions();
    const anyItem: TenantSession = { organizationId, grantName: routeId(webhook), grant: sessionGrantOf(webhook) };
    expect(tenantRefusal(secret('webhook_1'), anyItem, table)).toBeUndefined();
    // The role's decision and the session's.
    expect(keptDecisions()).toBe(2);
    expect(tenantRefusal(secret('webhook_2'), anyItem, table)).toBeUndefined();
    expect(keptDecisions()).toBe(2);
    const oneItem: TenantSession = { organizationId, grantName: routeId(inbound), grant: sessionGrantOf(inbound), itemId: 'inbound_1' };
    const open = (itemId: string) => keyRequestOf({ action: 'kms:Decrypt', encryptionContext: { organizationId, itemId, attribute: 'secrets' } }, config.tableName);
    expect(tenantRefusal(open('inbound_1'), oneItem, table)).toBeUndefined();
    // Another item, one character more, one less: refused, the item's own decision kept beside them.
    for (const other of ['inbound_2', 'inbound_10', 'inbound_']) expect(tenantRefusal(open(other), oneItem, table), other).toMatch(/session policy of .* does not allow kms:Decrypt/);
    expect(tenantRefusal(open('inbound_1'), oneItem, table)).toBeUndefined();
  });

  it("fail loudly in the strict mode when one reaches another organization's key, takes an action its route is not granted, or is signed as no organization; and a call signed as a function's own role, outside the keys it names", async () => {
    const a = await api.organization();
    const b = await api.organization();
    const session: TenantSession = { organizationId: b.organizationId, grantName: 'GetLead', grant: { actions: ['GetItem'] } };
    const read = (organizationId: string) => dynamo.send(new GetCommand({ TableName: config.tableName, Key: { pk: `ORG#${organizationId}`, sk: 'ORGANIZATION' } }));
    await expect(actingFor(session, () => read(a.organizationId))).rejects.toThrow(/tenant-data role's policy does not allow dynamodb:GetItem on table\/.* with keys \[ORG#org_\w+\] for organization org_/);
    await expect(actingFor(session, () => read(b.organizationId))).resolves.toMatchObject({ Item: { pk: `ORG#${b.organizationId}` } });
    const put = new PutCommand({ TableName: config.tableName, Item: { pk: `ORG#${b.organizationId}#SCRATCH`, sk: 'X' } });
    await expect(actingFor(session, () => dynamo.send(put))).rejects.toThrow(/session policy of GetLead does not allow dynamodb:PutItem/);
    await expect(duringRoute({ auth: 'apiKey', operationId: 'getLead' }, () => read(b.organizationId))).rejects.toThrow(/^Access denied \(strict mode, infra\/local\/strict-access.ts\): getLead sent GetItemCommand as its function's own role, which holds no table or key access/);
    // A public route is a named exception: it signs as its own role, on the keys it names.
    await expect(duringRoute({ auth: 'none', operationId: 'getOAuthAuthorize' }, () => read(b.organizationId))).resolves.toMatchObject({ Item: { pk: `ORG#${b.organizationId}`, sk: 'ORGANIZATION' } });
    // Until it names the organization, and then only through its session: the token endpoint's own role reaches none.
    await expect(duringRoute({ auth: 'none', operationId: 'postOAuthToken' }, () => read(b.organizationId))).rejects.toThrow(/the role of PostOAuthToken does not allow dynamodb:GetItem/);
    await expect(duringRoute({ auth: 'none', operationId: 'registerOAuthClient' }, () => read(b.organizationId))).rejects.toThrow(
      /the role of RegisterOAuthClient does not allow dynamodb:GetItem on table\/\S+ with keys \[ORG#org_\w+\] \(its keys: SOURCELIMIT#\*, OAUTHCLIENT#\*\)/,
    );
    // So does a worker, on every organization's keys unless it names others.
    const claim = () => dynamo.send(new GetCommand({ TableName: config.tableName, Key: { pk: 'SMSNUMBER#+61400000000', sk: 'CLAIM' } }));
    await expect(duringWorker('DeliverWebhooks', claim)).rejects.toThrow(/the role of DeliverWebhooks does not allow dynamodb:GetItem .* \(its keys: ORG#\*\)/);
    await expect(duringWorker('InboundSmsReplies', claim)).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
    await expect(duringWorker('DeliverWebhooks', () => read(b.organizationId))).resolves.toMatchObject({ Item: { pk: `ORG#${b.organizationId}`, sk: 'ORGANIZATION' } });
  });
});

describe('the strict mode', () => {
  it('is off with STRICT_ACCESS=off, still recording each call, and on again when installed again without it: each install replaces the one before', async () => {
    const a = await api.organization();
    const b = await api.organization();
    const session: TenantSession = { organizationId: b.organizationId, grantName: 'GetLead', grant: { actions: ['GetItem'] } };
    const readA = () => dynamo.send(new GetCommand({ TableName: config.tableName, Key: { pk: `ORG#${a.organizationId}`, sk: 'ORGANIZATION' } }));
    try {
      installStrictAccess({ STRICT_ACCESS: 'off' });
      let read: Awaited<ReturnType<typeof readA>> | undefined;
      const calls = await recordAwsCalls(async () => void (read = await actingFor(session, readA)));
      expect(read?.Item).toMatchObject({ pk: `ORG#${a.organizationId}`, sk: 'ORGANIZATION' });
      expect(calls.map((call) => [call.session?.organizationId, call.requests.map((request) => request.leadingKeys)])).toEqual([[b.organizationId, [[`ORG#${a.organizationId}`]]]]);
      installStrictAccess({ STRICT_ACCESS: 'on' });
      await expect(actingFor(session, readA)).rejects.toThrow(/tenant-data role's policy does not allow dynamodb:GetItem/);
    } finally {
      installStrictAccess({});
    }
    await expect(actingFor(session, readA)).rejects.toThrow(AccessDeniedLocally);
  });
});

describe("a keyed request's sealed secrets", () => {
  const webhook = routes.find((route) => route.operationId === 'createWebhook')!;
  const test = routes.find((route) => route.operationId === 'testWebhook')!;
  const sessionFor = (organizationId: string, route = webhook): TenantSession => ({ organizationId, grantName: routeId(route), grant: sessionGrantOf(route) });
  const secretOf = (organizationId: string) => ({ organizationId, itemId: 'webhook_sealed', attribute: 'secrets' });

  it("are sealed and opened by the request's session only for its own organization (the encryption context names it), and only as its route's grant says", async () => {
    const a = 'org_01SEALEDFORAAAAAAAAAAAAAAA';
    const sealed = await actingFor(sessionFor(a), () => seal('whsec_a', secretOf(a)));
    expect(await actingFor(sessionFor(a, test), () => open(sealed, secretOf(a)))).toBe('whsec_a');
    // Another organization's secret, one whose id is one character longer, or one character shorter: refused before KMS.
    for (const other of ['org_01SEALEDFORBBBBBBBBBBBBBBB', `${a}A`, a.slice(0, -1)]) {
      await expect(actingFor(sessionFor(a), () => seal('whsec_x', secretOf(other)))).rejects.toThrow(
        new RegExp(`^Access denied \\(strict mode, infra/local/strict-access.ts\\): the tenant-data role's policy does not allow kms:GenerateDataKey on key/local with .*"kms:EncryptionContext:organizationId":"${other}".* for organization ${a}$`),
      );
    }
    // The test route opens and never seals; a route with neither (a lead's read) does neither.
    await expect(actingFor(sessionFor(a, test), () => seal('whsec_a', secretOf(a)))).rejects.toThrow(/the session policy of TestWebhook does not allow kms:GenerateDataKey/);
    const getLead = routes.find((route) => route.operationId === 'getLead')!;
    await expect(actingFor(sessionFor(a, getLead), () => open(sealed, secretOf(a)))).rejects.toThrow(/the session policy of GetLead does not allow kms:Decrypt/);
    // A keyed route's call to the key made as no organization: its own role holds none.
    await expect(duringRoute(webhook, () => seal('whsec_a', secretOf(a)))).rejects.toThrow(/createWebhook sent kms:GenerateDataKey as its function's own role, which holds no table or key access/);
  });

  it("are opened by a worker as its own role, which holds the key's use it names, and by no other: the inbound post's own role holds none", async () => {
    const a = 'org_01SEALEDFORAAAAAAAAAAAAAAA';
    const sealed = await actingFor(sessionFor(a), () => seal('whsec_a', secretOf(a)));
    expect(await duringWorker('DeliverWebhooks', () => open(sealed, secretOf(a)))).toBe('whsec_a');
    await expect(duringRoute({ auth: 'none', operationId: 'receiveInbound' }, () => open(sealed, secretOf(a)))).rejects.toThrow(/the role of ReceiveInbound does not allow kms:Decrypt/);
    await expect(duringWorker('DeliverWebhooks', () => seal('whsec_a', secretOf(a)))).rejects.toThrow(/the role of DeliverWebhooks does not allow kms:GenerateDataKey/);
    await expect(duringWorker('InboundSmsReplies', () => open(sealed, secretOf(a)))).rejects.toThrow(/the role of InboundSmsReplies does not allow kms:Decrypt/);
  });

  it("are allowed by the key's own policy only to a role tagged for the use and made at the service's role path: the tenant-data role carries both tags", () => {
    const request = keyRequestOf({ action: 'kms:Decrypt', encryptionContext: { organizationId: 'org_a' } }, 'sales-pipeline');
    const everything: PolicyDocument = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: ['kms:*'], Resource: ['*'] }] };
    const keyPolicy = { Version: '2012-10-17', Statement: keyUseStatements(tableLocationOf(TABLE)) };
    const asRole = (tags: Record<string, string>, principalArn?: string) => allows(request, { identity: everything, principal: tenantPrincipal('org_a'), tags, resourcePolicy: keyPolicy, ...(principalArn ? { principalArn } : {}) });
    expect(asRole({ SalesPipelineOpensSecrets: 'sales-pipeline' })).toBe(true);
    expect(asRole({ SalesPipelineOpensSecrets: 'sales-pipeline-2' })).toBe(false);
    expect(asRole({ SalesPipelineSealsSecrets: 'sales-pipeline' })).toBe(false);
    expect(asRole({})).toBe(false);
    // Tagged alike by hand, a role elsewhere in the account is not admitted: not at the path, at a path that only
    // begins alike, or at the path of another account.
    const tagged = { SalesPipelineOpensSecrets: 'sales-pipeline' };
    expect(asRole(tagged, `arn:aws:iam::${LOCAL_ACCOUNT}:role/other/TenantData`)).toBe(false);
    expect(asRole(tagged, `arn:aws:iam::${LOCAL_ACCOUNT}:role/TenantData`)).toBe(false);
    expect(asRole(tagged, `arn:aws:iam::${LOCAL_ACCOUNT}:role/sales-pipeline-x/TenantData`)).toBe(false);
    expect(asRole(tagged, `arn:aws:iam::210987654321:role${SERVICE_ROLE_PATH}TenantData`)).toBe(false);
    expect(asRole(tagged, `arn:aws:iam::${LOCAL_ACCOUNT}:role${SERVICE_ROLE_PATH}TenantData`)).toBe(true);
  });

  it('are asked of KMS signed for the organization by its session, and as the function with none; the context KMS sees names the organization', async () => {
    const sts = await startLocalSts();
    const kms = await startLocalKms();
    try {
      const sdk = await import('@aws-crypto/client-node');
      const provider = tenantCredentials({ deployment: { roleArn: `arn:aws:iam::${LOCAL_ACCOUNT}:role/TenantData`, tableArn: TABLE }, own: async () => ({ accessKeyId: 'OWN', secretAccessKey: 'own' }), sts: () => sts.sts, now: sts.clock.now });
      const deployed = () =>
        sealingWith(sdk, keyringsFromEnvironment(sdk, { SECRETS_KEY_ALIAS_ARN: `arn:aws:kms:us-east-1:${LOCAL_ACCOUNT}:alias/sales-pipeline-secrets` }, true, kmsClientsSigningWith(sdk, provider, kms.endpoint)));
      const a = 'org_01KMSSIGNEDAAAAAAAAAAAAAAA';
      const sealed = await actingFor(sessionFor(a), () => seal('whsec_a', secretOf(a), deployed()));
      expect(await actingFor(sessionFor(a, test), () => open(sealed, secretOf(a), deployed()))).toBe('whsec_a');
      expect(await open(sealed, secretOf(a), deployed())).toBe('whsec_a');
      expect(kms.calls.map(({ action, signer, organizationId }) => [action, signer.startsWith('ASIA') ? 'session' : signer, organizationId])).toEqual([
        ['GenerateDataKey', 'session', a],
        ['Decrypt', 'session', a],
        ['Decrypt', 'OWN', a],
      ]);
      expect(kms.calls[0]!.signer).not.toBe(kms.calls[1]!.signer);
      // Another organization's secret is refused from its header: KMS is not asked.
      await expect(actingFor(sessionFor('org_01KMSSIGNEDBBBBBBBBBBBBBBB', test), () => open(sealed, secretOf('org_01KMSSIGNEDBBBBBBBBBBBBBBB'), deployed()))).rejects.toBeInstanceOf(SecretNotOpened);
      expect(kms.calls).toHaveLength(3);
    } finally {
      await Promise.all([sts.stop(), kms.stop()]);
    }
  });
});

describe('the sessions a container assumes (deployed: STS)', async () => {
  const sts = await startLocalSts();
  afterAll(() => sts.stop());
  const deployment = { roleArn: `arn:aws:iam::${LOCAL_ACCOUNT}:role/TenantData`, tableArn: TABLE };
  const own = { accessKeyId: 'OWN', secretAccessKey: 'own' };
  const grant = { actions: ['GetItem', 'Query'] as const, indexes: ['gsi1'] as const };
  const sessionOf = (organizationId: string, grantName = 'ListLeads'): TenantSession => ({ organizationId, grantName, grant: { actions: [...grant.actions], indexes: [...grant.indexes] } });
  const counted = { assumed: 0, refused: 0 };
  const fresh = () => tenantCredentials({ deployment, own: async () => own, sts: () => sts.sts, now: sts.clock.now, onAssume: () => void counted.assumed++, onRefused: () => void counted.refused++ });

  it("are assumed once per organization: tagged with it, narrowed to the route's actions; a warm request makes no STS call", async () => {
    const provider = fresh();
    const before = sts.requests.length;
    const first = await actingFor(sessionOf('org_one'), () => provider());
    const again = await actingFor(sessionOf('org_one'), () => provider());
    expect(again).toBe(first);
    expect(sts.requests.length - before).toBe(1);
    const form = sts.requests.at(-1)!;
    expect(Object.fromEntries(form)).toMatchObject({ Action: 'AssumeRole', RoleArn: deployment.roleArn, RoleSessionName: 'org_one', DurationSeconds: String(SESSION_SECONDS), 'Tags.member.1.Key': 'organizationId', 'Tags.member.1.Value': 'org_one' });
    expect(JSON.parse(form.get('Policy')!)).toEqual(routeSessionPolicy(sessionOf('org_one').grant, TABLE, 'org_one'));
    expect(form.get('Tags.member.2.Key')).toBeNull();
    const other = await actingFor(sessionOf('org_two'), () => provider());
    expect(other.accessKeyId).not.toBe(first.accessKeyId);
    expect(sts.requests.length - before).toBe(2);
  });

  it("are assumed per item for a session of one item's secrets (an inbound post's endpoint): its policy names the item, and another item's session is another", async () => {
    const provider = fresh();
    const inbound = routes.find((route) => route.operationId === 'receiveInbound')!;
    const postTo = (itemId: string): TenantSession => ({ organizationId: 'org_items', grantName: routeId(inbound), grant: sessionGrantOf(inbound), itemId });
    const before = sts.requests.length;
    const first = await actingFor(postTo('inbound_one'), () => provider());
    expect(await actingFor(postTo('inbound_one'), () => provider())).toBe(first);
    const policy = JSON.parse(sts.requests.at(-1)!.get('Policy')!) as PolicyDocument;
    expect(policy).toEqual(routeSessionPolicy(postTo('inbound_one').grant, TABLE, 'org_items', undefined, 'inbound_one'));
    expect(policy.Statement.find((statement) => statement.Action.includes('kms:Decrypt'))!.Condition!.StringEquals).toEqual({ 'kms:EncryptionContext:organizationId': 'org_items', 'kms:EncryptionContext:itemId': 'inbound_one' });
    const second = await actingFor(postTo('inbound_two'), () => provider());
    expect(second.accessKeyId).not.toBe(first.accessKeyId);
    expect(JSON.parse(sts.requests.at(-1)!.get('Policy')!)).toEqual(routeSessionPolicy(postTo('inbound_two').grant, TABLE, 'org_items', undefined, 'inbound_two'));
    expect(sts.requests.length - before).toBe(2);
  });

  it("are kept for the hour by a provider on the machine's clock, as deployed (no clock handed to it)", async () => {
    const provider = tenantCredentials({ deployment, own: async () => own, sts: () => sts.sts });
    const before = sts.requests.length;
    const first = await actingFor(sessionOf('org_real_clock'), () => provider());
    expect(first.expiration!.getTime()).toBeGreaterThan(Date.now() + SESSION_SECONDS * 1000 - 60_000);
    expect(await actingFor(sessionOf('org_real_clock'), () => provider())).toBe(first);
    expect(sts.requests.length - before).toBe(1);
  });

  it('are assumed once when two requests of a new organization come at once', async () => {
    const provider = fresh();
    const before = sts.requests.length;
    const [one, two] = await Promise.all([actingFor(sessionOf('org_race'), () => provider()), actingFor(sessionOf('org_race'), () => provider())]);
    expect(one).toBe(two);
    expect(sts.requests.length - before).toBe(1);
  });

  it('are assumed again from 5 minutes before they expire, not before', async () => {
    const provider = fresh();
    const start = sts.clock.now();
    sts.clock.set(start);
    const before = sts.requests.length;
    const first = await actingFor(sessionOf('org_ageing'), () => provider());
    sts.clock.set(start + SESSION_SECONDS * 1000 - REFRESH_BEFORE_MS - 1);
    expect(await actingFor(sessionOf('org_ageing'), () => provider())).toBe(first);
    sts.clock.set(start + SESSION_SECONDS * 1000 - REFRESH_BEFORE_MS);
    const renewed = await actingFor(sessionOf('org_ageing'), () => provider());
    expect(renewed.accessKeyId).not.toBe(first.accessKeyId);
    expect(sts.requests.length - before).toBe(2);
    sts.clock.live();
  });

  it('are asked for again after STS refused one (a throttled AssumeRole is not remembered)', async () => {
    const provider = fresh();
    const before = { ...counted };
    sts.failNext();
    const refused = await actingFor(sessionOf('org_throttled'), () => provider()).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'Throttling' });
    // The call it would have signed fails as a store that is too slow does: 503 with Retry-After, never a 500.
    expect(isTransientStoreError(refused)).toBe(true);
    expect((await actingFor(sessionOf('org_throttled'), () => provider())).accessKeyId).toMatch(/^ASIA/);
    // Both asked, one refused: what the metrics count (and the alarm on refusals watches).
    expect([counted.assumed - before.assumed, counted.refused - before.refused]).toEqual([2, 1]);
  });

  it('are never assumed for work that acts for no organization: that signs as the function', async () => {
    const provider = fresh();
    const before = sts.requests.length;
    expect(await provider()).toEqual(own);
    expect(sts.requests.length).toBe(before);
  });

  it("are refreshed 5 minutes before they expire, and last the role's hour", () => {
    expect([REFRESH_BEFORE_MS, SESSION_SECONDS]).toEqual([300_000, 3_600]);
  });

  it('are refused when STS answers without credentials, and asked again next time', async () => {
    const provider = fresh();
    sts.emptyNext();
    await expect(actingFor(sessionOf('org_empty'), () => provider())).rejects.toThrow('AssumeRole answered no credentials');
    expect((await actingFor(sessionOf('org_empty'), () => provider())).accessKeyId).toMatch(/^ASIA/);
  });

  it('are named by the organization, cut to the 64 characters a session name may have', async () => {
    const provider = fresh();
    const long = `org_${'X'.repeat(70)}`;
    await actingFor(sessionOf(long), () => provider());
    expect(sts.requests.at(-1)!.get('RoleSessionName')).toBe(long.slice(0, 64));
    expect(sts.requests.at(-1)!.get('Tags.member.1.Value')).toBe(long);
  });

  it(`are kept for ${MAX_SESSIONS} organizations at most, the least recently assumed dropped first`, async () => {
    const provider = tenantCredentials({ deployment, own: async () => own, sts: () => sts.sts, now: sts.clock.now });
    const start = sts.clock.now();
    sts.clock.set(start);
    const assume = (organizationId: string) => actingFor(sessionOf(organizationId), () => provider());
    await assume('org_lru_first');
    // Later, the second and enough others to fill the cache: the first's session expires before theirs.
    sts.clock.set(start + 3_000_000);
    await assume('org_lru_second');
    for (let i = 0; i < MAX_SESSIONS - 2; i++) await assume(`org_lru_${i}`);
    // Exactly full: every one is still kept, the first too.
    const full = sts.requests.length;
    await assume('org_lru_first');
    expect(sts.requests.length - full, `${MAX_SESSIONS} are kept`).toBe(0);
    // The first's session is assumed again on its expiry: it is now the most recently assumed.
    sts.clock.set(start + SESSION_SECONDS * 1000);
    await assume('org_lru_first');
    // One more organization: the least recently assumed, the second, is dropped to make room.
    await assume('org_lru_new');
    const before = sts.requests.length;
    await assume('org_lru_first');
    expect(sts.requests.length - before, 'the most recently assumed is kept').toBe(0);
    await assume('org_lru_second');
    expect(sts.requests.length - before, 'the least recently assumed was dropped').toBe(1);
    sts.clock.live();
  });

  it('keep a newer session when an older ask for the same organization fails after it was dropped and asked again', async () => {
    // The first ask waits at the gate, then STS refuses it; meanwhile the cache fills past MAX_SESSIONS and drops it.
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    let held = true;
    const gated = { send: (command: Parameters<typeof sts.sts.send>[0]) => (held ? ((held = false), gate.then(() => (sts.failNext(), sts.sts.send(command)))) : sts.sts.send(command)) };
    const provider = tenantCredentials({ deployment, own: async () => own, sts: () => gated as typeof sts.sts, now: sts.clock.now });
    const assume = (organizationId: string) => actingFor(sessionOf(organizationId), () => provider());
    const refused = assume('org_dropped').catch((error: unknown) => error);
    for (let i = 0; i < MAX_SESSIONS; i++) await assume(`org_filler_${i}`);
    const newer = await assume('org_dropped');
    open();
    expect(await refused).toMatchObject({ name: 'Throttling' });
    const before = sts.requests.length;
    expect(await assume('org_dropped')).toBe(newer);
    expect(sts.requests.length - before, 'the newer session is still kept').toBe(0);
  });

  it('work without a listener for what they do', async () => {
    const provider = tenantCredentials({ deployment, own: async () => own, sts: () => sts.sts, now: sts.clock.now });
    sts.failNext();
    await expect(actingFor(sessionOf('org_unheard'), () => provider())).rejects.toMatchObject({ name: 'Throttling' });
    expect((await actingFor(sessionOf('org_unheard'), () => provider())).accessKeyId).toMatch(/^ASIA/);
  });

  it('are asked for every call a client signs: the provider is marked memoized, so the SDK keeps none of its answers', async () => {
    const provider = fresh();
    expect(provider.memoized).toBe(true);
    expect(requestCredentials.memoized).toBe(true);
    const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB, region: 'local', credentials: provider, maxAttempts: 1 }));
    const signers: string[] = [];
    client.middlewareStack.add((next) => async (args) => {
      signers.push(((args.request as { headers: Record<string, string> }).headers.authorization ?? '').replace(/^.*Credential=([^/]+)\/.*$/, '$1'));
      return next(args);
    }, { step: 'finalizeRequest', priority: 'low', name: 'signer' });
    // DynamoDB Local keeps a database per access key: one an assumed session signs with has no table, which is no matter
    // here, where only the signature is looked at.
    const read = () =>
      client.send(new GetCommand({ TableName: config.tableName, Key: { pk: 'ORG#org_signed', sk: 'ORGANIZATION' } })).catch((error: Error) => {
        if (error.name !== 'ResourceNotFoundException') throw error;
      });
    await actingFor(sessionOf('org_signed_one'), read);
    await actingFor(sessionOf('org_signed_two'), read);
    await read();
    client.destroy();
    expect(signers[0]).toMatch(/^ASIA/);
    expect(signers[1]).toMatch(/^ASIA/);
    expect(signers[1]).not.toBe(signers[0]);
    expect(signers[2]).toBe(own.accessKeyId);
  });

  it('are kept apart per route in one process (the local server serves every route)', async () => {
    const provider = fresh();
    const before = sts.requests.length;
    await actingFor(sessionOf('org_routes', 'ListLeads'), () => provider());
    await actingFor(sessionOf('org_routes', 'GetLead'), () => provider());
    expect(sts.requests.length - before).toBe(2);
  });
});

describe("what a container's sessions do, counted", () => {
  it('each AssumeRole and each refusal becomes a metric of the request (the route handler listens)', async () => {
    await import('#shared/http/route-handler');
    const added = vi.spyOn(metrics, 'addMetric');
    sessionEvent('assumed');
    sessionEvent('refused');
    expect(added.mock.calls).toEqual([[METRIC.tenantSessionsAssumed, 'Count', 1], [METRIC.tenantSessionsRefused, 'Count', 1]]);
    added.mockRestore();
  });

  it('locally signs a session as the process does: DynamoDB Local checks no signature, the strict mode checks the policy', async () => {
    const session: TenantSession = { organizationId: 'org_local', grantName: 'GetLead', grant: { actions: ['GetItem'] } };
    const [alone, asOrganization] = [await requestCredentials(), await actingFor(session, () => requestCredentials())];
    expect(asOrganization.accessKeyId).toBe(alone.accessKeyId);
    expect(alone.accessKeyId).toBe(process.env.AWS_ACCESS_KEY_ID);
  });
});

describe('where deployed sessions come from', () => {
  const both = { TENANT_DATA_ROLE_ARN: 'arn:aws:iam::123456789012:role/sales-pipeline-tenant-data', TABLE_ARN: 'arn:aws:dynamodb:ap-southeast-2:123456789012:table/sales-pipeline' };
  const inLambda = { AWS_LAMBDA_FUNCTION_NAME: 'ListLeads' };

  it('is the role and the table the environment names, in Lambda and out', () => {
    expect(tenantDeploymentOf({ ...both, ...inLambda })).toEqual({ roleArn: both.TENANT_DATA_ROLE_ARN, tableArn: both.TABLE_ARN });
    expect(tenantDeploymentOf(both)).toEqual({ roleArn: both.TENANT_DATA_ROLE_ARN, tableArn: both.TABLE_ARN });
  });

  it('is nothing locally, where DynamoDB Local checks no signature, and under sam local, which has no STS', () => {
    expect(tenantDeploymentOf({})).toBeNull();
    expect(tenantDeploymentOf({ TENANT_DATA_ROLE_ARN: both.TENANT_DATA_ROLE_ARN })).toBeNull();
    expect(tenantDeploymentOf({ ...both, ...inLambda, AWS_SAM_LOCAL: 'true' })).toBeNull();
  });

  it('fails loudly in Lambda when either is missing, rather than sign as the function', () => {
    for (const env of [inLambda, { ...inLambda, TENANT_DATA_ROLE_ARN: both.TENANT_DATA_ROLE_ARN }, { ...inLambda, TABLE_ARN: both.TABLE_ARN }]) {
      expect(() => tenantDeploymentOf(env), JSON.stringify(env)).toThrow('Missing required environment variables TENANT_DATA_ROLE_ARN and TABLE_ARN');
    }
  });
});

describe('one DynamoDB client', () => {
  const ROOT = join(import.meta.dirname, '..');
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [join(dir, entry.name)] : []));
  /** The named exceptions: the shared client itself, and the daily export (a table-level action, no item's key). */
  const MAY_BUILD_A_CLIENT = ['shared/dynamo.ts', 'functions/reports/export.ts'];

  it('is built in shared/dynamo.ts alone (with its tenant credentials): no module under functions/ or shared/ builds its own', () => {
    const builders = [...files(join(ROOT, 'functions')), ...files(join(ROOT, 'shared'))]
      .filter((file) => /new DynamoDB(Document)?Client\b|DynamoDBDocumentClient\.from\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(builders.sort()).toEqual(MAY_BUILD_A_CLIENT.sort());
    expect(readFileSync(join(ROOT, 'shared/dynamo.ts'), 'utf8')).toMatch(/credentials: requestCredentials/);
  });
});
