import { beforeAll, describe, expect, it } from 'vitest';
import { grantedActions, routeId } from '#shared/routes/route';
import { TABLE_INDEXES } from '#shared/table';
import { actsForOrganizations, EVERY_ORGANIZATION, ownKeysOf, ownTableStatements, routeSessionPolicy, sessionGrantOf, TENANT_DATA_ACTIONS } from '#shared/tenancy/policies';
import type { RouteDefinition } from '#shared/routes/route';
import { LOCAL_ACCOUNT } from '../infra/local/aws-calls';
import { duringRoute, duringWorker, recordAwsCalls, tenantPrincipal, type RecordedCall } from '../infra/local/strict-access';
import { actingFor } from '#shared/tenancy/session';
import { AUTHORIZERS, routes, SCHEDULED_JOBS, WORKERS } from '../functions/resources';
import { itemsOf } from './support/fixtures';
import { useTestApi } from './support/api';
import { tourRoutes, TOURED_ROUTES } from './support/route-tour';
import { decision, deployed, expectTenantCallAsDeployed, ownPolicy, ownRoleTags, TABLE_ARN, tenantPolicy, tenantRoleTags } from './support/deployed-policies';

/**
 * Every AWS call the route tour makes, evaluated against the synthesized template with an IAM policy simulator
 * (docs/decisions/tenancy.md): a keyed route's call under the tenant-data role's policy with its session's tag and its
 * route's session policy, a public route's or a worker's under its function's own role. Each must be allowed; a
 * tenant call must be denied to another organization (and to one whose id is a prefix of its own); and every action
 * a keyed route is granted must be one the tour used, or be named below with why.
 */
const api = useTestApi({ events: true });

/**
 * Actions of a keyed route's own row that the tour's one request does not use: each is taken only on a branch the
 * tour does not visit (a conflict's ConditionCheck, a changed name's guard, a filtered list's BatchGet, a lost race's
 * read, the secret of a duplicate subscription opened to answer it, a platformSecret sent in a change), which the
 * route's own tests take, held to the route's grant by the strict mode. A route's row that gains an
 * action fails the check below until the tour uses it or it is named here; one named here that the tour comes to use,
 * or that the row drops, fails it too.
 */
const OFF_THE_TOURS_PATH: Record<string, string[]> = {
  createLead: ['GetItem'],
  upsertLead: ['ConditionCheckItem', 'DeleteItem', 'PutItem'],
  updateLead: ['ConditionCheckItem', 'DeleteItem'],
  listInquiries: ['BatchGetItem'],
  ingestInquiry: ['ConditionCheckItem'],
  sendSms: ['GetItem'],
  listSms: ['BatchGetItem'],
  // The tour's automation has no webhook step, whose secret alone is sealed (functions/automations/signing-secret.test.ts).
  createAutomation: ['GetItem', 'kms:GenerateDataKey'],
  updateAutomation: ['DeleteItem', 'kms:GenerateDataKey'],
  enrolAutomationLead: ['Query'],
  previewAutomation: ['Query'],
  deleteCompany: ['BatchWriteItem'],
  createCompanyNote: ['ConditionCheckItem'],
  updateOrganization: ['DeleteItem', 'GetItem', 'PutItem'],
  createOrganizationMember: ['GetItem'],
  // A browser another member had subscribed becomes this member's: the tour subscribes a new one.
  createPushSubscription: ['DeleteItem'],
  updateOrganizationMember: ['ConditionCheckItem', 'Query'],
  deleteOrganizationMember: ['ConditionCheckItem'],
  createService: ['BatchGetItem', 'ConditionCheckItem'],
  updateService: ['BatchGetItem', 'ConditionCheckItem', 'DeleteItem'],
  updateProduct: ['DeleteItem'],
  batchUpdateProducts: ['GetItem'],
  createTransfer: ['GetItem'],
  listTransfers: ['GetItem'],
  updateTransfer: ['DeleteItem', 'UpdateItem'],
  deleteTransfer: ['UpdateItem'],
  updateFaq: ['DeleteItem', 'GetItem', 'PutItem'],
  createWebhook: ['GetItem', 'kms:Decrypt'],
  updateWebhook: ['DeleteItem', 'PutItem'],
  redeliverEvent: ['PutItem'],
  updateInboundEndpoint: ['GetItem', 'kms:GenerateDataKey'],
  patchProduct: ['DeleteItem'],
  patchTransfer: ['DeleteItem', 'UpdateItem'],
  patchFaq: ['DeleteItem', 'GetItem', 'PutItem'],
  patchWebhook: ['DeleteItem', 'PutItem'],
  // The tour posts with the URL's token, to a new lead: no secret opened, no lead's claim lost to a race.
  receiveInbound: ['ConditionCheckItem', 'kms:Decrypt'],
  // A recount refused while another runs (which it reads), or one its queue refused (marked FAILED, its place freed):
  // functions/reports/rebuild-jobs.test.ts takes both.
  startReportRebuild: ['DeleteItem', 'GetItem', 'UpdateItem'],
  // A bulk enrolment its queue refused, marked FAILED: functions/automations/enrolments/enrolments.test.ts takes it.
  startAutomationEnrolment: ['UpdateItem'],
  // A passkey enrolled: the tour's forged credential is refused before it is kept (a browser's virtual authenticator
  // enrols one in test/console.test.ts).
  addPasskey: ['PutItem'],
};

/**
 * Actions of the functions that sign as themselves that the tour does not take, by function, each taken where its own
 * tests go (held to the function's grant there by the strict mode): the tour sends no SMS and no receipt arrives, its
 * webhook's URL is never delivered to, no one consents or exchanges a code, its inbound post is not a duplicate, the
 * sweep runs on its schedule, the stream consumer meets no event twice, no automation runs, and no passkey signs in. A grant that gains an
 * action fails the check until the tour takes it or it is named here; a name its grant no longer has fails it too.
 */
const OWN_ACTIONS_OFF_THE_TOUR: Record<string, string[]> = {
  DeliverWebhooks: ['GetItem', 'PutItem', 'UpdateItem'],
  // A sharded organization's count of a status's leads, the sum of its counter's shards (the tour's is not sharded).
  EnrolAutomationLeads: ['BatchGetItem'],
  InboundSmsReplies: ['ConditionCheckItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
  PostOAuthAuthorize: ['GetItem', 'PutItem', 'Query'],
  // A verified passkey's member and new session: only a browser's authenticator signs (test/console.test.ts).
  SignInWithPasskey: ['GetItem', 'PutItem'],
  PostOAuthToken: ['GetItem', 'Query'],
  RecordEvents: ['BatchGetItem', 'ConditionCheckItem', 'DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
  RunAutomationSteps: ['BatchGetItem', 'ConditionCheckItem', 'DeleteItem', 'PutItem', 'Query'],
  SettleUnansweredSms: ['Query', 'UpdateItem'],
  SmsReceipts: ['UpdateItem'],
};

/** What a public route's own role is granted: its row's actions, or, where it acts for the organization it names, those its own keys take. */
const ownActionsOf = (route: RouteDefinition): string[] =>
  actsForOrganizations(route)
    ? [...new Set(ownTableStatements({ actions: grantedActions(route), indexes: route.indexes, keys: route.ownKeys }, TABLE_ARN).flatMap((statement) => [statement.Action].flat().map((action) => action.replace(/^dynamodb:/, ''))))]
    : grantedActions(route);

let recorded: RecordedCall[] = [];
/** The organizations whose items the index check reads: the tour's, and one the demo seed filled (a record of every kind left standing). */
let organizations: string[] = [];
beforeAll(async () => {
  const { client, organizationId } = await api.organization();
  organizations = [organizationId, (await api.organization({ demo: true })).organizationId];
  recorded = await recordAwsCalls(async () => {
    await tourRoutes({ ...client, queuesIdle: api.queuesIdle });
    await api.eventsCaughtUp();
  });
});

describe('every AWS call of the route tour, against the synthesized template', () => {
  it('visits every route, so a new route is covered with no step of its own', () => {
    const visited = new Set(recorded.map((call) => call.route));
    const keyedWithTable = routes.filter((route) => route.auth !== 'none' && route.dynamodb.length > 0);
    const toured = new Set(TOURED_ROUTES);
    const missing = keyedWithTable.filter((route) => toured.has(`${route.method} ${route.path}`) && !visited.has(route.operationId)).map((route) => route.operationId);
    expect(missing).toEqual([]);
  });

  it("allows each keyed route's call under the tenant-data role with its organization's tag and under its session policy, and denies it to another organization", async () => {
    const tenantCalls = recorded.filter((call) => call.session && call.functionId !== 'IsolationCanary');
    expect(tenantCalls.length).toBeGreaterThan(100);
    // The calls to the sealing key among them: a webhook's secret sealed at its creation, opened by its test; an
    // organization's push key pair sealed at the first ask.
    expect(new Set(tenantCalls.flatMap((call) => call.requests.filter((request) => request.action.startsWith('kms:')).map((request) => `${call.route} ${request.action}`)))).toEqual(
      new Set(['createWebhook kms:GenerateDataKey', 'rotateWebhookSecret kms:GenerateDataKey', 'rotateWebhookSecret kms:Decrypt', 'testWebhook kms:Decrypt', 'createInboundEndpoint kms:GenerateDataKey', 'rotateInboundEndpoint kms:GenerateDataKey', 'pushSubscriptionOptions kms:GenerateDataKey']),
    );
    for (const call of tenantCalls) expectTenantCallAsDeployed(call);
  });

  it("denies the isolation canary's read, signed for one organization, of another's record", async () => {
    const { proveIsolation, CANARY_ORGANIZATIONS } = await import('../functions/organization/isolation-canary');
    const [call] = await recordAwsCalls(() => proveIsolation());
    expect(call!.session?.organizationId).toBe(CANARY_ORGANIZATIONS.signer);
    for (const request of call!.requests.map(deployed)) {
      // Another organization's partition, whose id extends the signer's.
      expect(request.leadingKeys).toEqual([`ORG#${CANARY_ORGANIZATIONS.target}`]);
      expect(decision(tenantPrincipal(call!.session!.organizationId), tenantPolicy, request, call!.session!.organizationId, tenantRoleTags)).toBe('Denied');
    }
  });

  it("allows each public route's and each worker's call under its function's own role", async () => {
    const ownCalls = recorded.filter((call) => !call.session && call.functionId);
    expect(ownCalls.length).toBeGreaterThan(0);
    const workers = new Set(WORKERS.map((worker) => worker.name));
    expect(ownCalls.some((call) => workers.has(call.functionId!))).toBe(true);
    for (const call of ownCalls) {
      const policy = ownPolicy(call.functionId!);
      for (const request of call.requests.map(deployed)) {
        const principal = `arn:aws:sts::${LOCAL_ACCOUNT}:assumed-role/${call.functionId}Role/function`;
        expect(decision(principal, policy, request, undefined, ownRoleTags(call.functionId!)), `${call.functionId}: ${request.action} on ${request.resource.replace(/^.*:table\//, '')}`).toBe('Allowed');
      }
    }
  });

  it('holds the sign-in, OAuth and inbound functions’ own roles to what each key needs: no member, grant or organization item deleted by a sign-in', () => {
    const principal = (functionId: string) => `arn:aws:sts::${LOCAL_ACCOUNT}:assumed-role/${functionId}Role/function`;
    const asDeployed = (functionId: string, action: string, key: string) => decision(principal(functionId), ownPolicy(functionId), deployed({ action: `dynamodb:${action}`, resource: TABLE_ARN, leadingKeys: [key] }), undefined, ownRoleTags(functionId));
    const ORG = 'ORG#org_01JD3F4G5H6J7K8M9N0P1Q2R3S';
    // [function, action, key, IAM's decision]: each role's need allowed, the action it never takes on that key denied.
    const expected: [string, string, string, string][] = [
      ['SignInWithCode', 'DeleteItem', 'SIGNIN#+61491570110', 'Allowed'],
      ['SignInWithCode', 'DeleteItem', ORG, 'Denied'],
      ['SignInWithCode', 'UpdateItem', ORG, 'Denied'],
      ['SignInWithCode', 'PutItem', ORG, 'Allowed'],
      ['SignInWithCode', 'PutItem', 'SOURCELIMIT#sign-in#203.0.113.7', 'Denied'],
      ['SignInWithPasskey', 'DeleteItem', ORG, 'Denied'],
      ['SignInWithPasskey', 'UpdateItem', ORG, 'Allowed'],
      ['SignInWithPasskey', 'DeleteItem', 'SIGNIN#challenge', 'Allowed'],
      ['PasskeySignInOptions', 'DeleteItem', 'SIGNIN#challenge', 'Denied'],
      ['PasskeySignInOptions', 'PutItem', 'SIGNIN#challenge', 'Allowed'],
      ['GetOAuthAuthorize', 'PutItem', ORG, 'Denied'],
      ['GetOAuthAuthorize', 'GetItem', ORG, 'Allowed'],
      ['PostOAuthAuthorize', 'UpdateItem', ORG, 'Denied'],
      ['PostOAuthAuthorize', 'PutItem', ORG, 'Allowed'],
      ['RegisterOAuthClient', 'DeleteItem', 'OAUTHCLIENT#client_x', 'Denied'],
      ['PostOAuthToken', 'DeleteItem', 'OAUTHCLIENT#client_x', 'Denied'],
      ['PostOAuthToken', 'UpdateItem', 'OAUTHCLIENT#client_x', 'Denied'],
      ['PostOAuthToken', 'GetItem', 'OAUTHCLIENT#client_x', 'Allowed'],
      ['PostOAuthToken', 'Query', 'TOKEN#hash', 'Allowed'],
      // What a code or refresh token names is reached through its organization's session alone.
      ['PostOAuthToken', 'DeleteItem', ORG, 'Denied'],
      ['PostOAuthToken', 'GetItem', ORG, 'Denied'],
      // Everything the inbound post touches is its organization's: its own role reaches nothing.
      ['ReceiveInbound', 'GetItem', ORG, 'Denied'],
      ['ReceiveInbound', 'PutItem', ORG, 'Denied'],
      ['ReceiveInbound', 'Query', 'INBOUND#x', 'Denied'],
      ['ReceiveInbound', 'UpdateItem', 'SOURCELIMIT#inbound#203.0.113.7', 'Denied'],
      ['SendSignInCodes', 'PutItem', ORG, 'Denied'],
      ['SendSignInCodes', 'PutItem', 'SIGNIN#+61491570110', 'Allowed'],
    ];
    expect(expected.map(([functionId, action, key]) => [functionId, action, key, asDeployed(functionId, action, key)])).toEqual(expected);
  });

  it("allows a worker's call to the sealing key under its own role, as its tags and the key's policy say, and no other function's (the inbound post's role none: its session opens)", async () => {
    const { seal, open } = await import('#shared/envelope-encryption');
    const secret = { organizationId: 'org_01SIMULATEDKEYUSE000000000', itemId: 'webhook_simulated', attribute: 'secrets' };
    const sealed = await actingFor({ organizationId: secret.organizationId, grantName: 'CreateWebhook', grant: sessionGrantOf(routes.find((route) => route.operationId === 'createWebhook')!) }, () => seal('whsec_simulated', secret));
    const calls = await recordAwsCalls(async () => {
      await duringWorker('DeliverWebhooks', () => open(sealed, secret));
      // Refused by the strict mode as well; recorded first.
      await duringRoute({ auth: 'none', operationId: 'receiveInbound' }, () => open(sealed, secret)).catch(() => undefined);
      await duringWorker('InboundSmsReplies', () => open(sealed, secret)).catch(() => undefined);
      await duringRoute({ auth: 'apiKey', operationId: 'testWebhook' }, () => open(sealed, secret)).catch(() => undefined);
    });
    const decided = calls.map((call) => {
      const principal = `arn:aws:sts::${LOCAL_ACCOUNT}:assumed-role/${call.functionId}Role/function`;
      return `${call.functionId}: ${call.requests.map((request) => `${request.action} ${decision(principal, ownPolicy(call.functionId!), deployed(request), undefined, ownRoleTags(call.functionId!))}`).join()}`;
    });
    expect(decided).toEqual(['DeliverWebhooks: kms:Decrypt Allowed', 'ReceiveInbound: kms:Decrypt Denied', 'InboundSmsReplies: kms:Decrypt Denied', 'TestWebhook: kms:Decrypt Denied']);
  });

  it("opens, in an inbound post's session, its endpoint's secrets alone: not another endpoint's of the same organization, nor another organization's", async () => {
    const { seal, open } = await import('#shared/envelope-encryption');
    const organizationId = 'org_01SIMULATEDINBOUND00000000';
    const receiving = routes.find((route) => route.operationId === 'receiveInbound')!;
    const sealedFor = (itemId: string, owner = organizationId) => ({ organizationId: owner, itemId, attribute: 'secret' });
    const sealAs = (itemId: string, owner = organizationId) =>
      actingFor({ organizationId: owner, grantName: 'CreateInboundEndpoint', grant: sessionGrantOf(routes.find((route) => route.operationId === 'createInboundEndpoint')!) }, () => seal('whsec_simulated', sealedFor(itemId, owner)));
    const [own, sibling] = [await sealAs('inbound_own'), await sealAs('inbound_sibling')];
    const postTo = { organizationId, grantName: routeId(receiving), grant: sessionGrantOf(receiving), itemId: 'inbound_own' };
    const calls = await recordAwsCalls(async () => {
      await duringRoute(receiving, () => actingFor(postTo, () => open(own, sealedFor('inbound_own'))));
      // Refused by the strict mode too; recorded first.
      await duringRoute(receiving, () => actingFor(postTo, () => open(sibling, sealedFor('inbound_sibling')))).catch(() => undefined);
    });
    const asDeployed = calls.map((call) => {
      const session = routeSessionPolicy(call.session!.grant, TABLE_ARN, organizationId, undefined, call.session!.itemId);
      return call.requests.map(deployed).map((request) => `${request.context?.['kms:EncryptionContext:itemId']}: role ${decision(tenantPrincipal(organizationId), tenantPolicy, request, organizationId, tenantRoleTags)}, session ${decision(tenantPrincipal(organizationId), session, request, organizationId, tenantRoleTags)}`);
    });
    expect(asDeployed.flat()).toEqual(['inbound_own: role Allowed, session Allowed', 'inbound_sibling: role Allowed, session Denied']);
    // Another organization's endpoint of the same id: its organization's context, refused by the role already.
    const foreign = deployed({ action: 'kms:Decrypt', resource: calls[0]!.requests[0]!.resource, leadingKeys: [], context: { ...calls[0]!.requests[0]!.context, 'kms:EncryptionContext:organizationId': 'org_01ANOTHERORGANIZATION0000' } });
    expect(decision(tenantPrincipal(organizationId), tenantPolicy, foreign, organizationId, tenantRoleTags)).toBe('Denied');
  });

  it("reaches, in the token endpoint's session, its organization's items and a registered client's keep alone", () => {
    const token = routes.find((route) => route.operationId === 'postOAuthToken')!;
    const organizationId = 'org_01JD3F4G5H6J7K8M9N0P1Q2R3S';
    const session = routeSessionPolicy(sessionGrantOf(token), TABLE_ARN, organizationId);
    const asSession = (action: string, key: string) => {
      const request = deployed({ action: `dynamodb:${action}`, resource: TABLE_ARN, leadingKeys: [key] });
      return [decision(tenantPrincipal(organizationId), tenantPolicy, request, organizationId, tenantRoleTags), decision(tenantPrincipal(organizationId), session, request, organizationId, tenantRoleTags)].join('/');
    };
    expect([
      asSession('DeleteItem', `ORG#${organizationId}`),
      asSession('UpdateItem', 'OAUTHCLIENT#client_x'),
      asSession('DeleteItem', 'OAUTHCLIENT#client_x'),
      asSession('PutItem', 'ORG#org_01ANOTHERORGANIZATION0000'),
      asSession('Query', 'TOKEN#hash'),
    ]).toEqual(['Allowed/Allowed', 'Allowed/Allowed', 'Denied/Denied', 'Denied/Denied', 'Denied/Denied']);
  });

  it("keys every index entry of the organization's items by the organization, but for the named exceptions' indexes", async () => {
    // An index's partition key is what a Query on it is authorized by: one that lost its organization would be a key
    // no session may query. The exceptions are the keys the functions that sign as themselves name, beyond ORG#*.
    const named = [...routes.map((route) => route.ownKeys), ...[...WORKERS, ...SCHEDULED_JOBS, ...Object.values(AUTHORIZERS)].map((owner) => owner.keys)]
      .map((keys) => (keys ? ownKeysOf({ actions: [], keys }) : []))
      .flat()
      .filter((pattern) => pattern !== EVERY_ORGANIZATION);
    for (const organizationId of organizations) {
      const items = (await itemsOf(organizationId)).map((item) => JSON.parse(item) as Record<string, unknown>);
      const indexed = items.flatMap((item) => Object.entries(item).filter(([name]) => /^gsi\dpk$/.test(name)).map(([name, value]) => ({ name, value: String(value), sk: String(item.sk) })));
      // Every index of the table has entries among them: each is checked, none passes by being empty.
      expect([...new Set(indexed.map(({ name }) => name))].sort()).toEqual(TABLE_INDEXES.map((index) => index.partitionKey).sort());
      const outside = indexed.filter(({ value }) => value !== `ORG#${organizationId}` && !value.startsWith(`ORG#${organizationId}#`) && !named.some((pattern) => value.startsWith(pattern.replace(/\*$/, ''))));
      expect(outside).toEqual([]);
    }
  });

  it("uses every action each function that signs as itself is granted, on the tour or named with why", () => {
    const used = new Map<string, Set<string>>();
    for (const call of recorded.filter((candidate) => !candidate.session && candidate.functionId)) {
      const actions = used.get(call.functionId!) ?? new Set<string>();
      for (const request of call.requests) actions.add(request.action.replace(/^dynamodb:/, ''));
      used.set(call.functionId!, actions);
    }
    const owners = [
      ...routes.filter((route) => route.auth === 'none' && !route.aliasOf).map((route) => ({ id: routeId(route), actions: ownActionsOf(route) })),
      ...[...WORKERS, ...SCHEDULED_JOBS].map((worker) => ({ id: worker.name, actions: worker.dynamodb as string[] })),
    ];
    // Idle and not named: a grant wider than its function's use. Named and not granted: a stale name. (The workers run
    // beside the tour as its events come, so what the tour happens to take of a named action may vary; no equality.)
    const unnamed = owners.flatMap(({ id, actions }) => actions.filter((action) => !used.get(id)?.has(action) && !OWN_ACTIONS_OFF_THE_TOUR[id]?.includes(action)).map((action) => `${id} ${action}`));
    expect(unnamed).toEqual([]);
    const stale = Object.entries(OWN_ACTIONS_OFF_THE_TOUR).flatMap(([id, actions]) => actions.filter((action) => !owners.find((owner) => owner.id === id)?.actions.includes(action)).map((action) => `${id} ${action}`));
    expect(stale).toEqual([]);
  });

  it("uses every action the tenant-data role grants, and every action of each keyed route's row (or names why not)", () => {
    const used = new Map<string, Set<string>>();
    for (const call of recorded.filter((candidate) => candidate.session)) {
      const actions = used.get(call.session!.grantName) ?? new Set<string>();
      for (const request of call.requests) actions.add(request.action.replace(/^dynamodb:/, ''));
      used.set(call.session!.grantName, actions);
    }
    const everyUsed = new Set([...used.values()].flatMap((actions) => [...actions]));
    expect(TENANT_DATA_ACTIONS.filter((action) => !everyUsed.has(action))).toEqual([]);
    // The sealing key's two uses, which the role's policy grants beside the table's, each taken by some keyed route.
    const keyActions = tenantPolicy.Statement.flatMap((statement) => [statement.Action].flat()).filter((action) => action.startsWith('kms:'));
    expect(keyActions.sort()).toEqual(['kms:Decrypt', 'kms:GenerateDataKey']);
    expect(keyActions.filter((action) => !everyUsed.has(action))).toEqual([]);
    const unused: Record<string, string[]> = {};
    for (const route of routes.filter((candidate) => actsForOrganizations(candidate) && used.has(routeId(candidate)))) {
      // The idempotency record's actions come with every idempotent route (grantedActions); its own tests use them.
      const granted = [...route.dynamodb, ...routeSessionPolicy(sessionGrantOf(route), TABLE_ARN, 'org').Statement.flatMap((statement) => statement.Action).filter((action) => action.startsWith('kms:'))];
      const idle = granted.filter((action) => !used.get(routeId(route))!.has(action)).sort();
      if (idle.length) unused[route.operationId] = idle;
    }
    expect(unused).toEqual(OFF_THE_TOURS_PATH);
  });
});
