import { App } from 'aws-cdk-lib';
import { authorizerCacheFlush, REST_API_VARIABLE, STAGE_VARIABLE } from '#shared/auth/authorizer-cache-flush';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { readFileSync } from 'node:fs';
import { SERVICE_ROLE_PATH } from '#shared/iam';
import { describe, expect, it } from 'vitest';
import { BACKUP_RETENTION } from '../infra/cdk/table-backups';
import { KEY_ADMINISTRATION_ACTIONS } from '../infra/cdk/key-policies';
import { readsCursorKey } from '../infra/cdk/api/route-functions';
import { buildApp } from '../infra/cdk/app';
import { INBOUND_ROUTE_THROTTLE, INBOUND_USAGE_PLANS, USAGE_PLAN_NAMES, USAGE_PLANS } from '#shared/auth/usage-plans';
import { DYNAMODB_MAX_ATTEMPTS, DYNAMODB_TIMEOUTS } from '#shared/dynamo';
import { routes, WORKERS } from '../functions/resources';
import { OAUTH_SOURCE_LIMITS } from '../functions/oauth/source-limits';
import { multiRegionSealingKeyAlias, opensSecrets, sealingKeyAlias, sealsSecrets, SECRETS_KEY_VARIABLES } from '#shared/sealing-key';
import type { Capability } from '#shared/routes/route';
import { authorizerOf, grantedActions, routeId } from '#shared/routes/route';
import { TABLE_INDEXES } from '#shared/table';
import { actsForOrganizations, ownKeysOf, sharedPartitionsOf, TENANT_DATA_ACTIONS, TENANT_ROLE_VARIABLES } from '#shared/tenancy/policies';
import { TENANT_ACCESS_TAG, tenantDataRoleName } from '../infra/cdk/tenant-data-role';

/**
 * What `cdk synth` gives the app: the account of the credentials it found, and the profile's region, or us-east-1
 * when it finds none.
 */
const CLI_ENVIRONMENT = { CDK_DEFAULT_ACCOUNT: '123456789012', CDK_DEFAULT_REGION: 'us-east-1' };
/** Builds the app as `cdk synth` runs it, with the CLI's environment variables set for the while. */
function asTheCliBuilds<T>(build: () => T): T {
  const before = Object.fromEntries(Object.keys(CLI_ENVIRONMENT).map((name) => [name, process.env[name]]));
  Object.assign(process.env, CLI_ENVIRONMENT);
  try {
    return build();
  } finally {
    for (const [name, value] of Object.entries(before)) if (value === undefined) delete process.env[name]; else process.env[name] = value;
  }
}
// Asset bundling is left to `npm run synth`; here only the templates matter.
const { app, api, data, events } = asTheCliBuilds(() => buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none' } })));
const apiTemplate = Template.fromStack(api);
const dataTemplate = Template.fromStack(data);
const eventsTemplate = Template.fromStack(events);

type Resource = { Properties: Record<string, any> };
/** The API stack and the nested stacks holding its routes, one per tag. */
const apiTemplates = [apiTemplate, ...[...api.functionStacks.values()].map((stack) => Template.fromStack(stack))];
const resourcesOf = (type: string) => Object.assign({}, ...apiTemplates.map((template) => template.findResources(type))) as Record<string, Resource>;
const functions = resourcesOf('AWS::Lambda::Function');
const policies = resourcesOf('AWS::IAM::Policy');
const methods = Object.values(resourcesOf('AWS::ApiGateway::Method'));
/** The parent's resource `logicalId` as a template names it: its Ref, or the nested stack's parameter that carries it. */
const passed: Record<string, unknown> = Object.assign({}, ...Object.values(apiTemplate.findResources('AWS::CloudFormation::Stack')).map((stack) => stack.Properties.Parameters));
const refTo = (logicalId: string | undefined) => (value: { Ref?: string }) => logicalId !== undefined && [value?.Ref, (passed[value?.Ref ?? ''] as { Ref?: string })?.Ref].includes(logicalId);
/** The API's root path, which no route has. */
const isRoot = (method: Resource) => JSON.stringify(method.Properties.ResourceId).includes('RootResourceId');
const authorizers = Object.entries(apiTemplate.findResources('AWS::ApiGateway::Authorizer') as Record<string, Resource>);
/** The logical id of the API Gateway authorizer whose function is the construct `functionId`. */
const authorizerIdOf = (functionId: string) => authorizers.find(([, a]) => JSON.stringify(a.Properties.AuthorizerUri).includes(`${functionId}Live`))?.[0];
/** Whether a method is behind the authorizer whose function is the construct `functionId`. */
const behind = (method: Resource | undefined, functionId: string) => refTo(authorizerIdOf(functionId))(method?.Properties.AuthorizerId);
const AUTHORIZER_FUNCTIONS = { apiKey: 'Authorizer', inboundEndpoint: 'InboundAuthorizer' } as const;
const methodOf = (route: (typeof routes)[number]) =>
  methods.find((m) => m.Properties.HttpMethod === route.method && JSON.stringify(m.Properties.Integration).includes(`${routeId(route)}Live`));

function dynamoActionsOf(constructId: string): string[] {
  const policy = Object.entries(policies).find(([logicalId]) => logicalId.startsWith(`${constructId}Role`));
  const statements: Array<{ Action: string | string[] }> = policy?.[1].Properties.PolicyDocument.Statement ?? [];
  // Each once: a role with key patterns that take different actions has one statement for each set.
  return [...new Set(statements.flatMap((s) => [s.Action].flat()).filter((action) => action.startsWith('dynamodb:')))].sort();
}

describe('the API stack', () => {
  it('throttles the public inbound route on its own, below the stage and above every inbound plan, so an organization’s inbound plan is the limit that binds', () => {
    const stage = Object.values(apiTemplate.findResources('AWS::ApiGateway::Stage') as Record<string, Resource>)[0]!;
    const throttled = routes.filter((route) => route.throttle);
    // The OAuth endpoints that register and issue have a ceiling every caller shares (functions/oauth/routes.ts), ten
    // times what any one source may ask (functions/oauth/source-limits.ts): it is the per-source limits that bind.
    // So have the console's sign-in routes (functions/sign-in/routes.ts), far above what its per-source limits let one source ask.
    expect(throttled.map((route) => route.operationId)).toEqual(['receiveInbound', 'requestSignInCode', 'signInWithCode', 'passkeySignInOptions', 'signInWithPasskey', 'registerOAuthClient', 'getOAuthAuthorize', 'postOAuthAuthorize', 'postOAuthToken']);
    const signIn = (stage.Properties.MethodSettings as Array<Record<string, any>>).find((setting) => setting.HttpMethod === 'POST' && setting.ResourcePath === '/~1v1~1sign-in~1codes')!;
    expect(signIn).toMatchObject({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 });
    const register = (stage.Properties.MethodSettings as Array<Record<string, any>>).find((setting) => setting.HttpMethod === 'POST' && setting.ResourcePath === '/~1oauth~1register')!;
    expect(register).toMatchObject({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 });
    for (const limit of Object.values(OAUTH_SOURCE_LIMITS)) expect(register.ThrottlingRateLimit).toBeGreaterThanOrEqual((10 * limit.limit) / limit.windowSeconds);
    // The consent page, which fetches a client's document, has its own throttle below the stage's.
    const authorize = (stage.Properties.MethodSettings as Array<Record<string, any>>).find((setting) => setting.HttpMethod === 'GET' && setting.ResourcePath === '/~1oauth~1authorize')!;
    expect(authorize).toMatchObject({ ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 });
    const inbound = (stage.Properties.MethodSettings as Array<Record<string, any>>).find((setting) => setting.HttpMethod === 'POST' && setting.ResourcePath === '/~1v1~1inbound~1{inboundEndpointId}')!;
    expect(inbound).toMatchObject({ ThrottlingRateLimit: 200, ThrottlingBurstLimit: 400 });
    // Room for one organization at its inbound plan's full rate and burst, and as much again for every other organization.
    for (const plan of Object.values(INBOUND_USAGE_PLANS).filter((plan) => Number.isFinite(plan.rateLimit))) {
      expect(inbound.ThrottlingRateLimit).toBeGreaterThanOrEqual(2 * plan.rateLimit);
      expect(inbound.ThrottlingBurstLimit).toBeGreaterThanOrEqual(2 * plan.burstLimit);
    }
    const stageLimit = stage.Properties.MethodSettings.find((setting: Record<string, any>) => setting.HttpMethod === '*').ThrottlingRateLimit;
    expect(stageLimit).toBe(1000);
    expect(inbound.ThrottlingRateLimit).toBeLessThan(stageLimit);
  });

  it('has one function per route (a PATCH alias is its PUT’s) plus the two authorizers, all Node.js 24 on arm64 with tracing', () => {
    expect(Object.keys(functions)).toHaveLength(routes.filter((route) => !route.aliasOf).length + 2);
    const logGroups = resourcesOf('AWS::Logs::LogGroup');
    for (const [id, fn] of Object.entries(functions)) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], TracingConfig: { Mode: 'Active' } });
      // Its own log group, beside it in its construct: `<construct>Logs…` for the function `<construct>Function…`.
      const logGroupId: string = fn.Properties.LoggingConfig.LogGroup.Ref;
      expect(Object.keys(logGroups), id).toContain(logGroupId);
      expect(logGroupId.replace(/Logs[0-9A-F]{8}$/, ''), id).toBe(id.replace(/Function[0-9A-F]{8}$/, ''));
    }
  });

  it('answers every path’s other methods with 405 from a mock on ANY, reaching no function, its Allow the path’s methods', () => {
    const anyMethods = methods.filter((method) => method.Properties.HttpMethod === 'ANY' && !isRoot(method));
    const allowed = new Map<string, string>();
    for (const route of routes) allowed.set(route.path, [...new Set([...(allowed.get(route.path)?.split(', ') ?? []), route.method])].sort().join(', '));
    expect(anyMethods).toHaveLength(allowed.size);
    const answered = anyMethods.map((method) => {
      const { Integration, AuthorizationType, MethodResponses } = method.Properties;
      expect(Integration).toMatchObject({ Type: 'MOCK', ContentHandling: 'CONVERT_TO_TEXT' });
      expect(AuthorizationType).toBe('NONE');
      expect(MethodResponses).toEqual([expect.objectContaining({ StatusCode: '405' })]);
      const [response] = Integration.IntegrationResponses;
      expect(response.StatusCode).toBe('405');
      expect(JSON.parse(response.ResponseTemplates['application/json'])).toMatchObject({ success: false, error: { status: 405, code: 'METHOD_NOT_ALLOWED' } });
      // The headers every answer carries, gateway errors too.
      expect(response.ResponseParameters).toMatchObject({ 'method.response.header.Cache-Control': "'no-store'", 'method.response.header.X-Content-Type-Options': "'nosniff'" });
      return String(response.ResponseParameters['method.response.header.Allow']).replace(/'/g, '');
    });
    expect(answered.sort()).toEqual([...allowed.values()].sort());
  });

  it('answers the root path, which no route has, as any unknown path: 404 from a mock on ANY with the gateway’s own not-found answer, reaching no function', () => {
    const [root, ...others] = methods.filter(isRoot);
    expect(others).toEqual([]);
    const [, notFound] = Object.entries(apiTemplate.findResources('AWS::ApiGateway::GatewayResponse') as Record<string, Resource>).find(([, response]) => response.Properties.ResponseType === 'MISSING_AUTHENTICATION_TOKEN')!;
    expect(root!.Properties).toMatchObject({ HttpMethod: 'ANY', AuthorizationType: 'NONE', Integration: { Type: 'MOCK' } });
    const [response] = root!.Properties.Integration.IntegrationResponses;
    expect(response.StatusCode).toBe(notFound.Properties.StatusCode);
    expect(response.ResponseTemplates).toEqual(notFound.Properties.ResponseTemplates);
    const headers = (parameters: Record<string, string>, prefix: string) => Object.fromEntries(Object.entries(parameters).map(([name, value]) => [name.replace(prefix, ''), value]));
    expect(headers(response.ResponseParameters, 'method.response.header.')).toEqual(headers(notFound.Properties.ResponseParameters, 'gatewayresponse.header.'));
  });

  it('serves each PATCH alias with its PUT’s function', () => {
    const aliases = routes.filter((route) => route.aliasOf);
    expect(aliases.map((alias) => alias.aliasOf).sort()).toEqual(routes.filter((route) => route.method === 'PUT').map((route) => route.operationId).sort());
    for (const alias of aliases) {
      const put = routes.find((route) => route.operationId === alias.aliasOf)!;
      expect(methodOf(alias)?.Properties.Integration, alias.operationId).toEqual(methodOf(put)?.Properties.Integration);
    }
  });

  it('puts the API key authorizer on every method except the public ones, and a public route’s own authorizer on it', () => {
    expect(authorizers).toHaveLength(2);
    for (const route of routes) {
      const method = methodOf(route);
      expect(method, `${route.method} ${route.path}`).toBeDefined();
      const kind = authorizerOf(route);
      if (!kind) {
        expect(method!.Properties.AuthorizationType).toBe('NONE');
      } else {
        expect(method!.Properties, `${route.method} ${route.path}`).toMatchObject({ AuthorizationType: 'CUSTOM' });
        expect(behind(method, AUTHORIZER_FUNCTIONS[kind as keyof typeof AUTHORIZER_FUNCTIONS]), `${route.method} ${route.path}`).toBe(true);
      }
    }
    // Plus the OPTIONS of each route that answers its CORS preflight.
    expect(methods.filter((method) => method.Properties.HttpMethod !== 'ANY')).toHaveLength(routes.length + routes.filter((route) => route.preflight).length);
  });

  it('deploys POST /mcp behind the API key authorizer, its function granted nothing of the table: its tools call the API', () => {
    const mcp = routes.find((route) => route.path === '/mcp')!;
    expect(mcp.method).toBe('POST');
    expect(methodOf(mcp)!.Properties).toMatchObject({ HttpMethod: 'POST', AuthorizationType: 'CUSTOM' });
    expect(behind(methodOf(mcp), 'Authorizer')).toBe(true);
    expect(dynamoActionsOf('PostMcp')).toEqual([]);
  });

  it('meters posts to inbound URLs by their organization: the inbound method has the inbound endpoint authorizer, uncached, and requires the usage-plan key', () => {
    const receive = routes.find((route) => route.operationId === 'receiveInbound')!;
    const inboundAuthorizerId = authorizerIdOf('InboundAuthorizer');
    expect(inboundAuthorizerId).toMatch(/^InboundEndpointAuthorizer[0-9A-F]{8}$/);
    expect(inboundAuthorizerId).not.toBe(authorizerIdOf('Authorizer'));
    expect(methodOf(receive)!.Properties).toMatchObject({ AuthorizationType: 'CUSTOM', ApiKeyRequired: true });
    expect(behind(methodOf(receive), 'InboundAuthorizer')).toBe(true);
    const inbound = authorizers.find(([id]) => id === inboundAuthorizerId)![1];
    // No identity source and no cache: each post is looked up by its own endpoint id.
    expect(inbound.Properties).toMatchObject({ Type: 'REQUEST', AuthorizerResultTtlInSeconds: 0 });
    expect(inbound.Properties.IdentitySource ?? '').toBe('');
    // It reads the endpoint by id on gsi1, and counts the source's posts of the day (marking the endpoint at its first refusal).
    expect(dynamoActionsOf('InboundAuthorizer')).toEqual(['dynamodb:Query', 'dynamodb:UpdateItem']);
  });

  it('answers the CORS preflight of POST /v1/inbound/{inboundEndpointId}: an OPTIONS method on the same resource, reaching the same function behind the same authorizer, throttled alike', () => {
    const receive = routes.find((route) => route.operationId === 'receiveInbound')!;
    const options = methods.filter((method) => method.Properties.HttpMethod === 'OPTIONS');
    expect(options).toHaveLength(1);
    const [preflight] = options;
    const post = methodOf(receive)!;
    expect(preflight!.Properties).toMatchObject({ ResourceId: post.Properties.ResourceId, AuthorizerId: post.Properties.AuthorizerId, AuthorizationType: 'CUSTOM', ApiKeyRequired: true });
    expect(behind(preflight, 'InboundAuthorizer')).toBe(true);
    expect(preflight!.Properties.Integration).toEqual(post.Properties.Integration);
    expect(preflight!.Properties.Integration).toMatchObject({ Type: 'AWS_PROXY' });
    const stage = Object.values(apiTemplate.findResources('AWS::ApiGateway::Stage') as Record<string, Resource>)[0]!;
    expect(stage.Properties.MethodSettings).toEqual(
      expect.arrayContaining([expect.objectContaining({ HttpMethod: 'OPTIONS', ResourcePath: '/~1v1~1inbound~1{inboundEndpointId}', ThrottlingRateLimit: INBOUND_ROUTE_THROTTLE.rateLimit, ThrottlingBurstLimit: INBOUND_ROUTE_THROTTLE.burstLimit })]),
    );
  });

  it('passes a multipart/form-data body through to the inbound function byte for byte: every media type is binary, and the proxy integration maps and converts nothing', () => {
    const [restApi] = Object.values(apiTemplate.findResources('AWS::ApiGateway::RestApi') as Record<string, Resource>);
    expect(restApi!.Properties.BinaryMediaTypes).toEqual(['*/*']);
    const integration = methodOf(routes.find((route) => route.operationId === 'receiveInbound')!)!.Properties.Integration;
    expect(integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
    expect(integration.ContentHandling).toBeUndefined();
    expect(integration.RequestTemplates).toBeUndefined();
  });

  it('authorizes with the Authorization header and caches the answer for 300 s', () => {
    expect(authorizers.find(([id]) => id === authorizerIdOf('Authorizer'))![1].Properties).toMatchObject({
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: 300,
    });
  });

  it("grants a public route's function exactly its route's DynamoDB actions (one that acts for the organization it names, those its own keys take), and a keyed route's none: it assumes the tenant-data role", () => {
    for (const route of routes) {
      const own = dynamoActionsOf(routeId(route));
      const ownKeysActions = [...new Set((route.ownKeys ?? []).flatMap((entry) => (typeof entry === 'string' ? grantedActions(route) : entry.actions)))];
      if (route.auth === 'none') expect(own, route.operationId).toEqual([...new Set(route.organizationSession ? ownKeysActions : grantedActions(route))].sort().map((a) => `dynamodb:${a}`));
      else expect(own, route.operationId).toEqual([]);
    }
    // The inbound post reaches nothing as its own role; the token endpoint its counters, clients and tokens' hashes.
    expect(dynamoActionsOf('ReceiveInbound')).toEqual([]);
    expect(dynamoActionsOf('PostOAuthToken')).toEqual(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    expect(dynamoActionsOf('Authorizer')).toEqual(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    const allActions = JSON.stringify(policies);
    expect(allActions).not.toContain('dynamodb:*');
    expect(allActions).not.toContain('dynamodb:Scan');
  });

  it('lets exactly the functions that take authority away flush the stage’s authorizer cache: apigateway:DELETE on that cache alone, with the API’s id and stage in their settings', () => {
    const flushes = (constructId: string) => {
      const policy = Object.entries(policies).find(([logicalId]) => logicalId.startsWith(`${constructId}Role`))?.[1];
      return (policy?.Properties.PolicyDocument.Statement ?? []).filter((statement: { Action: string | string[] }) => [statement.Action].flat().some((action) => action.startsWith('apigateway:')));
    };
    const flushing = new Set(routes.filter((route) => route.capabilities?.includes(authorizerCacheFlush)).map((route) => routeId(route)));
    expect([...flushing].sort()).toEqual(
      ['DeleteOauthGrant', 'DeleteOrganizationMember', 'PostOAuthToken', 'RevokeApiKey', 'SignOut', 'SignOutEverywhere', 'UpdateOrganizationMember'].sort(),
    );
    for (const route of routes) {
      const statements = flushes(routeId(route));
      if (!flushing.has(routeId(route))) {
        expect(statements, route.operationId).toEqual([]);
        continue;
      }
      expect(statements, route.operationId).toHaveLength(1);
      expect([statements[0].Action].flat(), route.operationId).toEqual(['apigateway:DELETE']);
      expect(JSON.stringify(statements[0].Resource), route.operationId).toMatch(/apigateway.*::\/restapis\/.*\/stages\/prod\/cache\/authorizers/);
      const fn = Object.entries(functions).find(([logicalId]) => logicalId.startsWith(routeId(route)) && !logicalId.includes('Role'))?.[1];
      expect(Object.keys(fn?.Properties.Environment.Variables ?? {}), route.operationId).toEqual(expect.arrayContaining([REST_API_VARIABLE, STAGE_VARIABLE]));
    }
  });

  it("holds every function's own table grant to the keys it names: a public route's, each one it reaches; an authorizer's too", () => {
    for (const route of routes.filter((candidate) => candidate.auth === 'none' && candidate.dynamodb.length > 0)) {
      expect(route.ownKeys, route.operationId).toBeDefined();
      const [, policy] = Object.entries(policies).find(([logicalId]) => logicalId.startsWith(`${routeId(route)}Role`))!;
      const table = policy.Properties.PolicyDocument.Statement.filter((statement: { Action: string | string[] }) => [statement.Action].flat().some((action) => action.startsWith('dynamodb:')));
      // Every pattern named, each in the one statement of the actions it takes.
      const patterns = table.flatMap((statement: { Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': string[] } } }) => statement.Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys']);
      expect(patterns.sort(), route.operationId).toEqual(ownKeysOf({ actions: [], keys: route.ownKeys }).sort());
    }
    for (const authorizer of ['Authorizer', 'InboundAuthorizer']) {
      const [, policy] = Object.entries(policies).find(([logicalId]) => logicalId.startsWith(`${authorizer}Role`))!;
      const [table] = policy.Properties.PolicyDocument.Statement.filter((statement: { Action: string | string[] }) => [statement.Action].flat().some((action) => action.startsWith('dynamodb:')));
      expect(table.Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys'], authorizer).toEqual(expect.arrayContaining(['ORG#*']));
      expect(table.Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys'], authorizer).not.toContain('*');
    }
    // Every DynamoDB statement of every role names its keys: none reaches the whole table.
    for (const [logicalId, policy] of Object.entries(policies)) {
      for (const statement of policy.Properties.PolicyDocument.Statement.filter((candidate: { Action: string | string[] }) => [candidate.Action].flat().some((action) => action.startsWith('dynamodb:')))) {
        expect(statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'], logicalId).toBeDefined();
      }
    }
  });

  it("lets each keyed route's function assume the tenant-data role, tagged so the role's trust policy admits it, and tells it where the role and the table are", () => {
    const roles = resourcesOf('AWS::IAM::Role');
    for (const route of routes) {
      const id = routeId(route);
      const [, policy] = Object.entries(policies).find(([logicalId]) => logicalId.startsWith(`${id}Role`))!;
      const assumes = policy.Properties.PolicyDocument.Statement.filter((s: { Action: string | string[] }) => [s.Action].flat().some((a) => a.startsWith('sts:')));
      const [, fn] = Object.entries(functions).find(([logicalId]) => logicalId.startsWith(`${id}Function`))!;
      const [, role] = Object.entries(roles).find(([logicalId]) => logicalId.startsWith(`${id}Role`))!;
      const tagged = (role.Properties.Tags ?? []).some((tag: { Key: string; Value: string }) => tag.Key === TENANT_ACCESS_TAG.key && tag.Value === TENANT_ACCESS_TAG.value);
      if (!actsForOrganizations(route)) {
        expect([assumes, tagged, fn.Properties.Environment.Variables[TENANT_ROLE_VARIABLES.role]], route.operationId).toEqual([[], false, undefined]);
        continue;
      }
      expect(assumes, route.operationId).toEqual([{ Action: ['sts:AssumeRole', 'sts:TagSession'], Effect: 'Allow', Resource: expect.anything() }]);
      // By name: the events stack makes the role, and is deployed first.
      expect(JSON.stringify(assumes[0].Resource), route.operationId).toContain(`:role${SERVICE_ROLE_PATH}${tenantDataRoleName('sales-pipeline')}`);
      expect(tagged, route.operationId).toBe(true);
      expect(Object.keys(fn.Properties.Environment.Variables), route.operationId).toEqual(expect.arrayContaining([TENANT_ROLE_VARIABLES.role, TENANT_ROLE_VARIABLES.table]));
    }
  });

  it("gives the tenant-data role (the events stack's, by the name the routes find it) one policy, the organization's keys alone, and a trust policy that asks for the caller's tag and exactly the organization's session tag", () => {
    const [role, ...more] = Object.values(eventsTemplate.findResources('AWS::IAM::Role') as Record<string, Resource>).filter((r) => JSON.stringify(r.Properties.Description ?? '').includes('for one organization at a time'));
    expect(more).toEqual([]);
    expect(role!.Properties.RoleName).toBe(tenantDataRoleName('sales-pipeline'));
    const trust = role!.Properties.AssumeRolePolicyDocument.Statement as Array<Record<string, any>>;
    expect(trust.map((statement) => statement.Action).flat().sort()).toEqual(['sts:AssumeRole', 'sts:TagSession']);
    for (const statement of trust) {
      expect(statement.Condition).toEqual({
        StringEquals: { [`aws:PrincipalTag/${TENANT_ACCESS_TAG.key}`]: TENANT_ACCESS_TAG.value },
        StringLike: { 'aws:RequestTag/organizationId': 'org_?*' },
        'ForAllValues:StringEquals': { 'aws:TagKeys': ['organizationId'] },
      });
    }
    const [managed] = Object.values(eventsTemplate.findResources('AWS::IAM::ManagedPolicy') as Record<string, Resource>).filter((p) => JSON.stringify(p.Properties.Description ?? '').includes('LeadingKeys'));
    const [statement, ...others] = managed!.Properties.PolicyDocument.Statement;
    const shared = others.filter((s: { Action: string[] }) => [s.Action].flat().every((action) => action.startsWith('dynamodb:')));
    // Beside the organization's keys, the named shared partitions alone, each with its own actions.
    expect(shared.map((s: { Condition: unknown }) => s.Condition)).toEqual(sharedPartitionsOf(routes).map(({ keys }) => ({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keys] } })));
    expect(statement.Action).toEqual(TENANT_DATA_ACTIONS.map((action) => `dynamodb:${action}`));
    expect(statement.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ORG#${aws:PrincipalTag/organizationId}', 'ORG#${aws:PrincipalTag/organizationId}#*'] } });
    // And the sealing key, for the secrets whose encryption context names the session's organization alone; the role
    // carries the tags the key's policy admits its two uses by.
    const onTheKey = others.filter((s: { Action: string[] }) => !shared.includes(s));
    expect(onTheKey.flatMap((s: { Action: string[] }) => [s.Action].flat()).sort()).toEqual(['kms:Decrypt', 'kms:GenerateDataKey']);
    for (const keyStatement of onTheKey) {
      expect(keyStatement.Condition).toEqual({
        'ForAnyValue:StringEquals': { 'kms:ResourceAliases': [sealingKeyAlias('sales-pipeline'), multiRegionSealingKeyAlias('sales-pipeline')] },
        StringEquals: { 'kms:EncryptionContext:organizationId': '${aws:PrincipalTag/organizationId}' },
      });
    }
    expect(role!.Properties.Tags).toEqual(expect.arrayContaining([{ Key: 'SalesPipelineSealsSecrets', Value: 'sales-pipeline' }, { Key: 'SalesPipelineOpensSecrets', Value: 'sales-pipeline' }]));
  });

  it('gives each function a role that writes only its own log group, not the managed basic execution role', () => {
    const roles = resourcesOf('AWS::IAM::Role');
    expect(JSON.stringify(roles)).not.toContain('AWSLambdaBasicExecutionRole');
    for (const route of routes) {
      const id = routeId(route);
      const policy = Object.entries(policies).find(([logicalId]) => logicalId.startsWith(`${id}Role`))![1];
      const logs = policy.Properties.PolicyDocument.Statement.filter((s: { Action: string | string[] }) => [s.Action].flat().some((a) => a.startsWith('logs:')));
      expect(logs, route.operationId).toHaveLength(1);
      const logGroup = Object.keys(resourcesOf('AWS::Logs::LogGroup')).find((logicalId) => logicalId.startsWith(`${id}Logs`));
      expect(logs[0].Resource, route.operationId).toEqual({ 'Fn::GetAtt': [logGroup, 'Arn'] });
    }
  });

  it('scopes each DynamoDB grant to the table and only the indexes its route queries', () => {
    const grantedResources = (constructId: string) => {
      const policy = Object.entries(policies).find(([logicalId]) => logicalId.startsWith(`${constructId}Role`))![1];
      const statement = policy.Properties.PolicyDocument.Statement.find((s: { Action: string | string[] }) =>
        [s.Action].flat().some((a) => a.startsWith('dynamodb:')),
      );
      return JSON.stringify(statement.Resource);
    };
    for (const route of routes.filter((r) => r.dynamodb.length && r.auth === 'none' && (!r.organizationSession || r.ownKeys?.length))) {
      const resources = grantedResources(routeId(route));
      expect(resources, route.operationId).not.toMatch(/"\*"|index\/\*/);
      for (const index of TABLE_INDEXES) {
        expect(resources.includes(`/index/${index.indexName}`), `${route.operationId} on ${index.indexName}`).toBe(route.indexes?.includes(index.indexName) ?? false);
      }
    }
    for (const authorizer of ['Authorizer', 'InboundAuthorizer']) {
      expect(grantedResources(authorizer)).toContain('/index/gsi1');
      expect(grantedResources(authorizer)).not.toContain('/index/gsi2');
    }
  });

  it('answers gateway errors with the spec envelope, unknown routes as 404', () => {
    apiTemplate.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'UNAUTHORIZED',
      StatusCode: '401',
      ResponseTemplates: {
        'application/json': JSON.stringify({
          success: false,
          message: 'Invalid or expired token',
          error: { status: 401, message: 'Invalid or expired token' },
        }),
      },
    });
    apiTemplate.hasResourceProperties('AWS::ApiGateway::GatewayResponse', { ResponseType: 'MISSING_AUTHENTICATION_TOKEN', StatusCode: '404' });
  });

  it('names the MCP server’s OAuth metadata in the gateway’s own 401 (an integration’s WWW-Authenticate API Gateway renames), at the deployed URL, which the authorizer checks audiences against', () => {
    const [unauthorized] = Object.values(apiTemplate.findResources('AWS::ApiGateway::GatewayResponse', { Properties: { ResponseType: 'UNAUTHORIZED' } })) as Resource[];
    // The header's value as deployed: its Fn::Join with each Ref written as ${name}.
    const rendered = (value: unknown): string => {
      const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
      if (join) return join[1].map(rendered).join(join[0]);
      const ref = (value as { Ref?: string }).Ref;
      if (ref) return `\${${ref.replace(/[0-9A-F]{8}$/, '')}}`;
      const attribute = (value as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt'];
      return attribute ? `\${${attribute[0].replace(/[0-9A-F]{8}$/, '')}.${attribute[1]}}` : String(value);
    };
    // The console's distribution, which serves the API on the console's origin.
    const baseUrl = '${Console.DomainName}';
    expect(rendered(unauthorized!.Properties.ResponseParameters['gatewayresponse.header.WWW-Authenticate'])).toBe(
      `'Bearer realm="sales-pipeline", resource_metadata="https://${baseUrl}/.well-known/oauth-protected-resource/mcp", scope="read"'`,
    );
    const authorizer = Object.entries(functions).find(([id]) => id.startsWith('AuthorizerFunction') || /^Authorizer[0-9A-F]{8}$/.test(id));
    expect(rendered(authorizer?.[1].Properties.Environment.Variables.PUBLIC_BASE_URL ?? Object.keys(functions).filter((id) => id.startsWith('Authorizer')).join())).toBe(`https://${baseUrl}`);
    for (const type of ['ACCESS_DENIED', 'DEFAULT_4XX', 'DEFAULT_5XX']) {
      apiTemplate.hasResourceProperties('AWS::ApiGateway::GatewayResponse', { ResponseType: type });
    }
  });

  it('answers a method outside the API key’s scope (the authorizer policy’s deny) with 403 INSUFFICIENT_SCOPE, not 401', () => {
    apiTemplate.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'ACCESS_DENIED',
      StatusCode: '403',
      ResponseTemplates: { 'application/json': Match.stringLikeRegexp('"status":403.*"code":"INSUFFICIENT_SCOPE"') },
    });
  });

  it('answers an authorizer that could not check the key with 503, not 401, and a timed-out integration with 504', () => {
    for (const type of ['AUTHORIZER_FAILURE', 'AUTHORIZER_CONFIGURATION_ERROR']) {
      apiTemplate.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        StatusCode: '503',
        ResponseTemplates: { 'application/json': Match.stringLikeRegexp('AUTHORIZER_UNAVAILABLE') },
      });
    }
    apiTemplate.hasResourceProperties('AWS::ApiGateway::GatewayResponse', { ResponseType: 'INTEGRATION_TIMEOUT', StatusCode: '504' });
  });

  it("keeps API Gateway's own statuses (403, 415, 503, 504 …) in the envelope instead of flattening them into 400 or 500", () => {
    for (const [type, status] of [['EXPIRED_TOKEN', 403], ['INVALID_API_KEY', 403], ['WAF_FILTERED', 403], ['UNSUPPORTED_MEDIA_TYPE', 415], ['INTEGRATION_FAILURE', 503], ['INTEGRATION_TIMEOUT', 504], ['QUOTA_EXCEEDED', 429]] as const) {
      apiTemplate.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        StatusCode: String(status),
        ResponseTemplates: { 'application/json': Match.stringLikeRegexp(`"status":${status}`) },
      });
    }
  });

  it('keeps the cursor signing key out of every function’s configuration: keyed route functions and the consent page’s get the secret’s ARN, the extension that reads it, and read access to that secret alone; other public ones (OAuth’s registration and token) none of it', () => {
    const publicIds = routes.filter((route) => !route.aliasOf && !readsCursorKey(route)).map(routeId);
    const oauth = routes.filter((route) => route.path.startsWith('/oauth/'));
    // The consent page signs its CSRF tokens with the key (functions/oauth/consent.ts); registration and tokens do not.
    expect(oauth.filter(readsCursorKey).map((route) => route.operationId)).toEqual(['getOAuthAuthorize', 'postOAuthAuthorize']);
    expect(publicIds).toEqual(expect.arrayContaining(oauth.filter((route) => !readsCursorKey(route)).map(routeId)));
    // Beside the origin secrets, which the distribution and the firewall resolve (test/cdk-nag.test.ts): exactly those three.
    const secretIds = Object.keys(apiTemplate.findResources('AWS::SecretsManager::Secret'));
    expect(secretIds.map((id) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual(['CursorSigningKey', 'OriginSecret', 'OriginSecretPrevious']);
    const [secretId] = secretIds.filter((id) => !id.startsWith('OriginSecret'));
    expect(secretId).toMatch(/^CursorSigningKey/);
    /** The secret as a function's template refers to it: its Ref, or the nested stack's parameter carrying it. */
    const isSecretRef = (value: unknown) => /^(referenceto\w*)?CursorSigningKey\w*$/.test(String((value as { Ref?: string })?.Ref));
    const authorizerIds = Object.values(AUTHORIZER_FUNCTIONS);
    for (const [id, fn] of Object.entries(functions)) {
      const variables = fn.Properties.Environment.Variables as Record<string, unknown>;
      // No value in any function's environment is, or resolves to, the key itself.
      expect(JSON.stringify(variables), id).not.toMatch(/resolve:secretsmanager|CursorSigningKey.*SecretString/);
      expect(Object.keys(variables), id).not.toContain('CURSOR_SECRET');
      const statements = (Object.entries(policies).find(([logicalId]) => logicalId.startsWith(id.replace(/Function[0-9A-F]{8}$/, 'Role')))?.[1].Properties.PolicyDocument.Statement ?? []) as Array<{ Action: string | string[]; Resource: unknown }>;
      const secretStatements = statements.filter((statement) => [statement.Action].flat().some((action) => action.startsWith('secretsmanager:')));
      if ([...authorizerIds, ...publicIds].some((owner) => id.startsWith(`${owner}Function`))) {
        expect(variables.CURSOR_SECRET_ARN, id).toBeUndefined();
        expect(secretStatements, id).toEqual([]);
        expect(JSON.stringify(fn.Properties.Layers ?? []), id).not.toMatch(/Paramsandsecrets/i);
        continue;
      }
      expect(isSecretRef(variables.CURSOR_SECRET_ARN), id).toBe(true);
      expect(variables, id).toMatchObject({ PARAMETERS_SECRETS_EXTENSION_CACHE_ENABLED: 'false' });
      expect(JSON.stringify(fn.Properties.Layers), id).toMatch(/Paramsandsecrets/i);
      expect(secretStatements.map((statement) => [[statement.Action].flat().sort(), isSecretRef(statement.Resource)]), id).toEqual([[['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'], true]]);
    }
    // Nothing else in the account's secrets: no statement of any function names another secret or every secret.
    for (const policy of Object.values(policies)) {
      for (const statement of policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>) {
        if ([statement.Action].flat().some((action) => action.startsWith('secretsmanager:'))) expect(isSecretRef(statement.Resource)).toBe(true);
      }
    }
  });

  it('gives every function more time than the DynamoDB client can take, and less than the gateway’s 29 s', () => {
    const timeouts = Object.values(functions).map((fn) => fn.Properties.Timeout as number);
    const worstDynamoMs = DYNAMODB_MAX_ATTEMPTS * (DYNAMODB_TIMEOUTS.connectionTimeout + DYNAMODB_TIMEOUTS.requestTimeout);
    for (const timeout of timeouts) {
      expect(timeout * 1000).toBeGreaterThan(worstDynamoMs);
      expect(timeout).toBeLessThan(29);
    }
  });

  it('meters each organization through a usage plan: the authorizer supplies the key, every authorized method requires one', () => {
    apiTemplate.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
    for (const route of routes) {
      expect(methodOf(route)?.Properties.ApiKeyRequired ?? false, `${route.method} ${route.path}`).toBe(authorizerOf(route) !== undefined);
    }
    const plans = Object.values(apiTemplate.findResources('AWS::ApiGateway::UsagePlan') as Record<string, Resource>);
    // A plan of each name for the organization's API keys (`<stack>-<plan>`) and one for its inbound URLs (`<stack>-inbound-<plan>`).
    expect(plans).toHaveLength(2 * USAGE_PLAN_NAMES.length);
    for (const [meter, limitsOf] of [['api', USAGE_PLANS], ['inbound', INBOUND_USAGE_PLANS]] as const) {
      for (const name of USAGE_PLAN_NAMES) {
        const plan = plans.find((p) => String(p.Properties.UsagePlanName) === `${api.stackName}-${meter === 'inbound' ? 'inbound-' : ''}${name}`);
        const limits = limitsOf[name];
        expect(plan?.Properties.ApiStages, `${meter} ${name}`).toHaveLength(1);
        if (Number.isFinite(limits.rateLimit)) {
          expect(plan?.Properties.Throttle).toEqual({ RateLimit: limits.rateLimit, BurstLimit: limits.burstLimit });
          expect(plan?.Properties.Quota).toEqual({ Limit: limits.dailyQuota, Period: 'DAY' });
        } else {
          expect(plan?.Properties.Throttle).toBeUndefined();
        }
      }
    }
  });

  it('sends a base64 answer (the gzipped reference script) as bytes to any Accept, a browser’s */* included', () => {
    apiTemplate.hasResourceProperties('AWS::ApiGateway::RestApi', { BinaryMediaTypes: ['*/*'] });
  });

  it('answers both usage-plan limits with 429 RATE_LIMITED and a Retry-After header', () => {
    for (const type of ['THROTTLED', 'QUOTA_EXCEEDED']) {
      apiTemplate.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        StatusCode: '429',
        ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': Match.stringLikeRegexp("^'[1-9][0-9]*'$") }),
        ResponseTemplates: { 'application/json': Match.stringLikeRegexp('"code":"RATE_LIMITED"') },
      });
    }
  });

  it('answers a function Lambda throttled (its reserved concurrency spent) with 503 SERVICE_UNAVAILABLE and a Retry-After header, never a 500', () => {
    apiTemplate.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'INTEGRATION_FAILURE',
      StatusCode: '503',
      ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': "'1'" }),
      ResponseTemplates: { 'application/json': Match.stringLikeRegexp('"code":"SERVICE_UNAVAILABLE"') },
    });
  });

  it('throttles the stage and writes access logs', () => {
    apiTemplate.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      TracingEnabled: true,
      AccessLogSetting: Match.objectLike({ DestinationArn: Match.anyValue() }),
      MethodSettings: Match.arrayWith([Match.objectLike({ ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 })]),
    });
  });
});

describe('the data stack', () => {
  it('has the single table with its keys, indexes, on-demand billing, PITR and deletion protection, retained', () => {
    dataTemplate.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    const [table] = Object.values(dataTemplate.findResources('AWS::DynamoDB::GlobalTable')) as Array<Resource & { DeletionPolicy: string }>;
    expect(table!.DeletionPolicy).toBe('Retain');
    expect(table!.Properties).toMatchObject({
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    });
    expect(table!.Properties.GlobalSecondaryIndexes.map((i: { IndexName: string }) => i.IndexName)).toEqual(TABLE_INDEXES.map((i) => i.indexName));
    expect(table!.Properties.Replicas[0]).toMatchObject({
      DeletionProtectionEnabled: true,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it('names the keys behind throttled requests (Contributor Insights, throttled keys only), as the DynamoDbThrottles runbook says', () => {
    const [table] = Object.values(dataTemplate.findResources('AWS::DynamoDB::GlobalTable')) as Resource[];
    expect(table!.Properties.Replicas[0].ContributorInsightsSpecification).toEqual({ Enabled: true, Mode: 'THROTTLED_KEYS' });
  });

  it('backs the table up with AWS Backup, daily for a week and monthly for a year, into a retained vault that refuses early deletes', () => {
    const [vaultId, vault] = Object.entries(dataTemplate.findResources('AWS::Backup::BackupVault') as Record<string, Resource & { DeletionPolicy: string }>)[0]!;
    expect(vault.DeletionPolicy).toBe('Retain');
    expect(vault.Properties.BackupVaultName).toBe('sales-pipeline-backups');
    expect(vault.Properties.AccessPolicy.Statement).toEqual([
      expect.objectContaining({ Effect: 'Deny', Principal: { AWS: '*' }, Action: expect.arrayContaining(['backup:DeleteRecoveryPoint']) }),
    ]);
    const [plan] = Object.values(dataTemplate.findResources('AWS::Backup::BackupPlan') as Record<string, Resource>);
    expect(plan!.Properties.BackupPlan.BackupPlanName).toBe('sales-pipeline-table');
    const rules = plan!.Properties.BackupPlan.BackupPlanRule as Array<Record<string, any>>;
    expect(rules.map((rule) => [rule.RuleName, rule.ScheduleExpression, rule.Lifecycle.DeleteAfterDays])).toEqual([
      ['Daily', 'cron(0 3 * * ? *)', BACKUP_RETENTION.dailyDays],
      ['Monthly', 'cron(0 4 1 * ? *)', BACKUP_RETENTION.monthlyDays],
    ]);
    expect([BACKUP_RETENTION.dailyDays, BACKUP_RETENTION.monthlyDays]).toEqual([7, 365]);
    for (const rule of rules) expect(rule.TargetBackupVault).toEqual({ 'Fn::GetAtt': [vaultId, 'BackupVaultName'] });
    const tableId = Object.keys(dataTemplate.findResources('AWS::DynamoDB::GlobalTable'))[0]!;
    dataTemplate.hasResourceProperties('AWS::Backup::BackupSelection', { BackupSelection: Match.objectLike({ Resources: [{ 'Fn::GetAtt': [tableId, 'Arn'] }] }) });
  });

  it('protects the stateful stacks, the table’s and the stream consumer’s, from deletion', () => {
    const assembly = app.synth();
    expect(assembly.getStackByName(data.stackName).terminationProtection).toBe(true);
    expect(assembly.getStackByName(events.stackName).terminationProtection).toBe(true);
  });
});

describe('the key sealing tenants’ secrets', () => {
  type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };
  const everyPolicy = {
    ...policies,
    ...(eventsTemplate.findResources('AWS::IAM::Policy') as Record<string, Resource>),
    ...(eventsTemplate.findResources('AWS::IAM::ManagedPolicy') as Record<string, Resource>),
    ...(dataTemplate.findResources('AWS::IAM::Policy') as Record<string, Resource>),
  };
  const everyFunction = { ...functions, ...(eventsTemplate.findResources('AWS::Lambda::Function') as Record<string, Resource>) };
  const kmsStatements = (policy: Resource) => (policy.Properties.PolicyDocument.Statement as Statement[]).filter((statement) => [statement.Action].flat().some((action) => action.startsWith('kms:')));
  /** The KMS actions a capability list grants: what the routes and workers declare, not a list of functions. */
  const kmsActionsOf = (capabilities: readonly Capability[] = []) =>
    capabilities.flatMap((capability) => capability.statements({ tableName: 'x', partition: 'aws', region: 'r', account: '1', urlSuffix: 'x', setting: () => undefined, restApiId: 'api', stageName: 'prod' })).flatMap((statement) => statement.actions).filter((action) => action.startsWith('kms:')).sort();
  /**
   * Who holds each use: a public route's and a worker's function, on its own role; a keyed route's, the tenant-data role
   * (`TenantData`) its sessions are of, for the organization's secrets alone.
   */
  const keyed = routes.filter((route) => !route.aliasOf && route.auth !== 'none');
  const declared = Object.fromEntries(
    [
      ...routes.filter((route) => !route.aliasOf && !actsForOrganizations(route)).map((route) => [routeId(route), kmsActionsOf(route.capabilities)] as const),
      ...WORKERS.map((worker) => [worker.name, kmsActionsOf(worker.capabilities)] as const),
      ['TenantData', [...new Set(routes.filter(actsForOrganizations).flatMap((route) => kmsActionsOf(route.capabilities)))].sort()] as const,
    ].filter(([, actions]) => actions.length),
  );

  it('is a customer-managed KMS key with yearly rotation, retained with the table, named by the alias the functions ask for', () => {
    const [[keyId, key]] = Object.entries(dataTemplate.findResources('AWS::KMS::Key')) as [[string, Resource & { DeletionPolicy?: string }]];
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key.DeletionPolicy).toBe('Retain');
    dataTemplate.hasResourceProperties('AWS::KMS::Alias', { AliasName: sealingKeyAlias('sales-pipeline'), TargetKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } });
  });

  it('has a policy of its own: the account administers it and uses it for nothing; only the roles tagged for a use, at the service’s role path, make that one call', () => {
    const [key] = Object.values(dataTemplate.findResources('AWS::KMS::Key')) as Resource[];
    const root = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::', { Ref: 'AWS::AccountId' }, ':root']] };
    const account = { 'aws:PrincipalAccount': { Ref: 'AWS::AccountId' } };
    const atThePath = { ArnLike: { 'aws:PrincipalArn': { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::', { Ref: 'AWS::AccountId' }, `:role${SERVICE_ROLE_PATH}*`]] } } };
    expect(key!.Properties.KeyPolicy).toEqual({
      Version: '2012-10-17',
      Statement: [
        { Sid: 'Administration', Effect: 'Allow', Principal: { AWS: root }, Action: [...KEY_ADMINISTRATION_ACTIONS], Resource: '*', Condition: { StringEquals: account } },
        { Sid: 'SealByTheFunctionsThatSeal', Effect: 'Allow', Principal: { AWS: root }, Action: 'kms:GenerateDataKey', Resource: '*', Condition: { StringEquals: { ...account, 'aws:PrincipalTag/SalesPipelineSealsSecrets': 'sales-pipeline' }, ...atThePath } },
        { Sid: 'OpenByTheFunctionsThatOpen', Effect: 'Allow', Principal: { AWS: root }, Action: 'kms:Decrypt', Resource: '*', Condition: { StringEquals: { ...account, 'aws:PrincipalTag/SalesPipelineOpensSecrets': 'sales-pipeline' }, ...atThePath } },
      ],
    });
    // Administering it is no way to use it: no cryptographic call, no grant, no wildcard that would reach one.
    const using = /^kms:(\*|Decrypt|Encrypt|GenerateDataKey|ReEncrypt|CreateGrant|Create\*)/;
    expect(KEY_ADMINISTRATION_ACTIONS.filter((action) => using.test(action))).toEqual([]);
    expect(KEY_ADMINISTRATION_ACTIONS).toEqual(expect.arrayContaining(['kms:Put*', 'kms:ScheduleKeyDeletion', 'kms:CancelKeyDeletion', 'kms:Update*', 'kms:ReplicateKey']));
  });

  it('is used by exactly the roles tagged for a use: the functions whose routes or workers seal (SalesPipelineSealsSecrets) or open (SalesPipelineOpensSecrets) a secret, with the table’s name', () => {
    const everyRole = { ...resourcesOf('AWS::IAM::Role'), ...(eventsTemplate.findResources('AWS::IAM::Role') as Record<string, Resource>), ...(dataTemplate.findResources('AWS::IAM::Role') as Record<string, Resource>) };
    const tagged: Record<string, string[]> = {};
    for (const [roleId, role] of Object.entries(everyRole)) {
      for (const { Key, Value } of (role.Properties.Tags ?? []) as { Key: string; Value: string }[]) {
        if (!Key.startsWith('SalesPipeline')) continue;
        expect([roleId, Value]).toEqual([roleId, 'sales-pipeline']);
        // At the path the key's policy asks for beside the tag (aws:PrincipalArn).
        expect([roleId, role.Properties.Path]).toEqual([roleId, SERVICE_ROLE_PATH]);
        const holder = Object.keys(declared).find((constructId) => roleId.startsWith(`${constructId}Role`)) ?? roleId;
        tagged[holder] = [...(tagged[holder] ?? []), Key === 'SalesPipelineSealsSecrets' ? 'kms:GenerateDataKey' : Key === 'SalesPipelineOpensSecrets' ? 'kms:Decrypt' : Key].sort();
      }
    }
    expect(tagged).toEqual(declared);
  });

  it('is granted to exactly the functions whose routes or workers seal or open a secret: kms:GenerateDataKey to seal, kms:Decrypt to open, and to no other function', () => {
    // The inbound post opens its endpoint's secret in its organization's session, as the keyed routes do: its own role holds none.
    // The stream consumer opens an organization's push key pair to sign its members' notices (functions/notifications/send.ts).
    expect(declared).toEqual({ TenantData: ['kms:Decrypt', 'kms:GenerateDataKey'], DeliverWebhooks: ['kms:Decrypt'], RecordEvents: ['kms:Decrypt'], RunAutomationSteps: ['kms:Decrypt'] });
    // The routes that seal or open one for an organization, whose functions are told the key's alias but hold no grant on it.
    const keyedUsers = routes.filter((route) => !route.aliasOf && actsForOrganizations(route) && kmsActionsOf(route.capabilities).length).map(routeId).sort();
    expect(keyedUsers).toEqual(['CreateAutomation', 'CreateInboundEndpoint', 'CreateWebhook', 'PushSubscriptionOptions', 'ReceiveInbound', 'RotateInboundEndpoint', 'RotateWebhookSecret', 'TestWebhook', 'UpdateAutomation', 'UpdateInboundEndpoint']);
    const granted: Record<string, string[]> = {};
    for (const [policyId, policy] of Object.entries(everyPolicy)) {
      const statements = kmsStatements(policy);
      if (!statements.length) continue;
      const holder = Object.keys(declared).find((constructId) => policyId.startsWith(`${constructId}Role`) || policyId.startsWith(`${constructId}Policy`)) ?? policyId;
      granted[holder] = [...(granted[holder] ?? []), ...statements.flatMap((statement) => [statement.Action].flat())].sort();
      for (const statement of statements) {
        // Any key of the account on condition it is the one the alias names: never another key, never every key.
        expect(JSON.stringify(statement.Resource), policyId).toContain(':key/*');
        const theAlias = { 'ForAnyValue:StringEquals': { 'kms:ResourceAliases': [sealingKeyAlias('sales-pipeline'), multiRegionSealingKeyAlias('sales-pipeline')] } };
        // The tenant-data role's, on condition the secret is the session's organization's too.
        const organizations = holder === 'TenantData' ? { StringEquals: { 'kms:EncryptionContext:organizationId': '${aws:PrincipalTag/organizationId}' } } : {};
        expect(statement.Condition, policyId).toEqual({ ...theAlias, ...organizations });
      }
    }
    expect(granted).toEqual(declared);
    // The same functions, and only they, are told the key's alias.
    const told = Object.entries(everyFunction).filter(([, fn]) => SECRETS_KEY_VARIABLES.deployed in (fn.Properties.Environment?.Variables ?? {})).map(([id]) => [...Object.keys(declared), ...keyedUsers].find((constructId) => id.startsWith(constructId)) ?? id);
    expect(told.sort()).toEqual([...Object.keys(declared).filter((holder) => holder !== 'TenantData'), ...keyedUsers].sort());
    expect([sealsSecrets, opensSecrets].map((capability) => capability.reachesOutside)).toEqual([false, false]);
  });
});

describe('every template', () => {
  /** Every string of a template but its mappings' (the extension's layer ARN of each region, chosen by AWS::Region). */
  const stringsOf = (value: unknown): string[] =>
    typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(stringsOf) : [];
  const strings = [...apiTemplates, dataTemplate, Template.fromStack(events)].flatMap((template) => stringsOf({ ...template.toJSON(), Mappings: undefined }));

  it('names no region or account, whatever `cdk synth` found: each deploys as it is to the account and region it is deployed to', () => {
    // The walk reaches the values inside intrinsic functions: a Ref's name is one of its strings.
    expect(strings).toContain('AWS::Region');
    expect(strings.filter((value) => value.includes(CLI_ENVIRONMENT.CDK_DEFAULT_REGION) || value.includes(CLI_ENVIRONMENT.CDK_DEFAULT_ACCOUNT))).toEqual([]);
    // The secrets extension's layer, by the region the function is deployed in; the table's one replica, that region's.
    const layers = Object.values(functions).flatMap((fn) => fn.Properties.Layers ?? []);
    // Every function but the two authorizers and the public routes', which read no secret, carries the one layer.
    const withoutSecret = ['Authorizer', 'InboundAuthorizer', ...routes.filter((route) => !route.aliasOf && !readsCursorKey(route)).map(routeId)];
    expect(Object.entries(functions).filter(([, fn]) => !fn.Properties.Layers).map(([id]) => id.replace(/Function[0-9A-F]{8}$/, '')).sort()).toEqual(withoutSecret.sort());
    expect(layers).toHaveLength(Object.keys(functions).length - withoutSecret.length);
    for (const layer of layers) expect(layer).toEqual({ 'Fn::FindInMap': [expect.any(String), { Ref: 'AWS::Region' }, expect.any(String)] });
    const [table] = Object.values(dataTemplate.findResources('AWS::DynamoDB::GlobalTable')) as Resource[];
    expect(table!.Properties.Replicas.map((replica: { Region: unknown }) => replica.Region)).toEqual([{ Ref: 'AWS::Region' }]);
  });
});

describe('the restore drill (docs/operations.md)', () => {
  const runbook = readFileSync(new URL('../docs/operations.md', import.meta.url), 'utf8');
  const section = runbook.slice(runbook.indexOf('## Restoring the table'), runbook.indexOf('\n## ', runbook.indexOf('## Restoring the table') + 1));
  /** The first column of the table "Names a restore uses". */
  const names = [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]!);
  const templates = [data, events, api].map((stack) => Template.fromStack(stack).toJSON());
  const strings = new Set<string>();
  const collect = (value: unknown): void => {
    if (typeof value === 'string') strings.add(value);
    else if (value && typeof value === 'object') for (const child of Object.values(value)) collect(child);
  };
  for (const template of templates) collect(template.Resources);
  const logicalIds = templates.flatMap((template) => [...Object.keys(template.Resources), ...Object.keys(template.Outputs ?? {})]);

  it('lists the table, the vault, the plan, the stream’s parameter and the consumer among the names it uses', () => {
    expect(names).toEqual(expect.arrayContaining(['sales-pipeline', 'sales-pipeline-backups', 'sales-pipeline-table', '/sales-pipeline/table/stream-arn', 'RecordEvents', 'StreamFailures', 'BackupsRoleArn']));
  });

  it.each(names.map((name) => [name]))('uses %s, which the templates have: a stack, a physical name or a logical id', (name) => {
    const stackNames = [data, events, api].map((stack) => stack.stackName);
    const found = stackNames.includes(name) || strings.has(name) || logicalIds.some((id) => id === name || id.startsWith(name) && /^[0-9A-Z]/.test(id.slice(name.length)));
    expect(found, `${name} is in no template`).toBe(true);
  });

  it('names in every command only what the table of names lists', () => {
    const physical = new Set([...strings].filter((value) => /^sales-pipeline|^\/sales-pipeline\//.test(value)));
    const mentioned = [...section.matchAll(/(?:^|[\s`=])((?:\/)?sales-pipeline[\w\/-]*)/g)].map((match) => match[1]!);
    const drill = new Set(['sales-pipeline-drill-pitr', 'sales-pipeline-drill-backup', 'sales-pipeline-restored']);
    for (const name of mentioned) expect(names.includes(name) || drill.has(name), name).toBe(true);
    for (const name of names.filter((candidate) => candidate.startsWith('sales-pipeline') || candidate.startsWith('/sales-pipeline'))) expect(physical.has(name), name).toBe(true);
  });
});
