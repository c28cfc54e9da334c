import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSimulation, type Simulation } from '@cloud-copilot/iam-simulate';
import { config } from '#shared/config';
import { routeId } from '#shared/routes/route';
import { ORGANIZATION_TAG, routeSessionPolicy, sharedPartitionsOf, TENANT_DATA_ACTIONS, type PolicyDocument } from '#shared/tenancy/policies';
import { buildApp } from '../infra/cdk/app';
import { LOCAL_ACCOUNT, LOCAL_REGION, type IamRequest } from '../infra/local/aws-calls';
import { recordAwsCalls, tenantPrincipal, type RecordedCall } from '../infra/local/strict-access';
import { routes, WORKERS } from '../functions/resources';
import { useTestApi } from './support/api';
import { tourRoutes, TOURED_ROUTES } from './support/route-tour';

/**
 * Every AWS call the route tour makes, evaluated against the synthesized template with an IAM policy simulator
 * (docs/decisions/tenancy.md): a keyed route's call under the tenant-data role's policy with its session's tag and its
 * route's session policy, a public route's or a worker's under its function's own role. Each must be allowed; a
 * tenant call must be denied to another organization (and to one whose id is a prefix of its own); and every action
 * a keyed route is granted must be one the tour used, or be named below with why.
 */
const api = useTestApi({ events: true });
const DEPLOYED_TABLE = 'sales-pipeline';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type Resource = { Type: string; Properties: Record<string, Json> };

const { api: apiStack, events } = buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none' } }));
const parent = Template.fromStack(apiStack).toJSON() as { Resources: Record<string, Resource> };
const nested = [...apiStack.functionStacks.values()].map((stack) => Template.fromStack(stack).toJSON() as { Resources: Record<string, Resource> });
const eventsTemplate = Template.fromStack(events).toJSON() as { Resources: Record<string, Resource> };
/** What the parent hands each nested stack, by parameter name. */
const passed: Record<string, Json> = Object.assign({}, ...Object.values(parent.Resources).filter((r) => r.Type === 'AWS::CloudFormation::Stack').map((r) => r.Properties.Parameters ?? {}));

const PSEUDO: Record<string, string> = { 'AWS::Partition': 'aws', 'AWS::Region': LOCAL_REGION, 'AWS::AccountId': LOCAL_ACCOUNT, 'AWS::URLSuffix': 'amazonaws.com' };

/** A template value as it would be deployed in the local account and region (resources by a placeholder of their id). */
function resolved(value: Json): Json {
  if (Array.isArray(value)) return value.map(resolved);
  if (value === null || typeof value !== 'object') return value;
  if ('Ref' in value) {
    const name = value.Ref as string;
    if (PSEUDO[name]) return PSEUDO[name];
    if (name in passed) return resolved(passed[name]!);
    return `ref:${name}`;
  }
  if ('Fn::Join' in value) {
    const [separator, parts] = value['Fn::Join'] as [string, Json[]];
    return (parts.map(resolved) as string[]).join(separator);
  }
  if ('Fn::GetAtt' in value) return `getatt:${(value['Fn::GetAtt'] as string[]).join('.')}`;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolved(inner)]));
}

const TABLE_ARN = `arn:aws:dynamodb:${LOCAL_REGION}:${LOCAL_ACCOUNT}:table/${DEPLOYED_TABLE}`;

/** The tenant-data role's policy, as deployed (the events stack makes it). */
const tenantPolicy = resolved(Object.values(eventsTemplate.Resources).find((r) => r.Type === 'AWS::IAM::ManagedPolicy' && String(r.Properties.Description).includes('LeadingKeys'))!.Properties.PolicyDocument!) as unknown as PolicyDocument;

/** A function's own role's policy (its construct id), as deployed: its statements, whichever templates hold them. */
function ownPolicy(functionId: string): PolicyDocument {
  const statements = [parent, ...nested, eventsTemplate].flatMap((template) =>
    Object.entries(template.Resources)
      .filter(([logicalId, r]) => r.Type === 'AWS::IAM::Policy' && logicalId.startsWith(`${functionId}Role`))
      .flatMap(([, r]) => (r.Properties.PolicyDocument as { Statement: Json[] }).Statement),
  );
  return { Version: '2012-10-17', Statement: resolved(statements) as never };
}

/** The request as IAM sees it deployed: on the deployed table, not the test's. */
const deployed = (request: IamRequest): IamRequest => ({ ...request, resource: request.resource.replace(`table/${config.tableName}`, `table/${DEPLOYED_TABLE}`) });

async function decision(principal: string, policy: PolicyDocument, request: IamRequest, organization?: string): Promise<string> {
  const simulation: Simulation = {
    request: {
      principal,
      action: request.action,
      resource: { resource: request.resource, accountId: LOCAL_ACCOUNT },
      contextVariables: { 'dynamodb:LeadingKeys': request.leadingKeys, ...(organization ? { [`aws:PrincipalTag/${ORGANIZATION_TAG}`]: organization } : {}) },
    },
    identityPolicies: [{ name: 'policy', policy }],
    serviceControlPolicies: [],
    resourceControlPolicies: [],
  };
  const result = await runSimulation(simulation, {});
  if (result.resultType === 'error') throw new Error(`${request.action} on ${request.resource}: ${JSON.stringify(result.errors)}`);
  return result.overallResult;
}

/** Whether every key a request names is in a named shared partition (which any organization's session may reach). */
const onlyShared = (request: IamRequest) => request.leadingKeys.length > 0 && request.leadingKeys.every((key) => sharedPartitionsOf(routes).some(({ keys }) => key.startsWith(keys.replace(/\*$/, ''))));

/**
 * Actions of a keyed route's own row that the tour's one request does not use: each is taken only on a branch the
 * tour does not visit (a conflict's ConditionCheck, a changed name's guard, a filtered list's BatchGet, a lost race's
 * read), which the route's own tests take, held to the route's grant by the strict mode. A route's row that gains an
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
  createAutomation: ['GetItem'],
  updateAutomation: ['DeleteItem'],
  enrolAutomationLead: ['Query'],
  previewAutomation: ['Query'],
  deleteCompany: ['BatchWriteItem'],
  createCompanyNote: ['ConditionCheckItem'],
  updateOrganization: ['DeleteItem', 'GetItem', 'PutItem'],
  createOrganizationMember: ['GetItem'],
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
  createWebhook: ['GetItem'],
  updateWebhook: ['DeleteItem', 'PutItem'],
  redeliverEvent: ['PutItem'],
  updateInboundEndpoint: ['GetItem'],
  patchProduct: ['DeleteItem'],
  patchTransfer: ['DeleteItem', 'UpdateItem'],
  patchFaq: ['DeleteItem', 'GetItem', 'PutItem'],
  patchWebhook: ['DeleteItem', 'PutItem'],

};

let recorded: RecordedCall[] = [];
beforeAll(async () => {
  const { client } = await api.organization();
  recorded = await recordAwsCalls(async () => {
    await tourRoutes(client);
    await api.eventsCaughtUp();
  });
}, 120_000);

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
    for (const call of tenantCalls) {
      const { organizationId, grant, grantName } = call.session!;
      const session = routeSessionPolicy(grant, TABLE_ARN, organizationId);
      for (const request of call.requests.map(deployed)) {
        const what = `${grantName}: ${request.action} on ${request.resource.replace(/^.*:table\//, '')} [${request.leadingKeys.join(', ')}]`;
        expect(await decision(tenantPrincipal(organizationId), tenantPolicy, request, organizationId), what).toBe('Allowed');
        expect(await decision(tenantPrincipal(organizationId), session, request, organizationId), `${what} (session policy)`).toBe('Allowed');
        if (onlyShared(request)) continue;
        // Another organization, and one whose id is this one's less its last character (a prefix widened by one).
        for (const other of ['org_01ANOTHERORGANIZATION0000', organizationId.slice(0, -1)]) {
          expect(await decision(tenantPrincipal(other), tenantPolicy, request, other), `${what} as ${other}`).toBe('ImplicitlyDenied');
        }
      }
    }
  });

  it("denies the isolation canary's read, signed for one organization, of another's record", async () => {
    const { proveIsolation } = await import('../functions/organization/isolation-canary');
    const [call] = await recordAwsCalls(() => proveIsolation());
    expect(call!.session?.organizationId).toMatch(/^org_/);
    for (const request of call!.requests.map(deployed)) {
      expect(request.leadingKeys).toEqual([expect.not.stringContaining(call!.session!.organizationId)]);
      expect(await decision(tenantPrincipal(call!.session!.organizationId), tenantPolicy, request, call!.session!.organizationId)).toBe('ImplicitlyDenied');
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
        expect(await decision(principal, policy, request), `${call.functionId}: ${request.action} on ${request.resource.replace(/^.*:table\//, '')}`).toBe('Allowed');
      }
    }
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
    const unused: Record<string, string[]> = {};
    for (const route of routes.filter((candidate) => candidate.auth !== 'none' && used.has(routeId(candidate)))) {
      // The idempotency record's actions come with every idempotent route (grantedActions); its own tests use them.
      const idle = route.dynamodb.filter((action) => !used.get(routeId(route))!.has(action)).sort();
      if (idle.length) unused[route.operationId] = idle;
    }
    expect(unused).toEqual(OFF_THE_TOURS_PATH);
  });
});
