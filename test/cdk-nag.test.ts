import { readFileSync } from 'node:fs';
import { App, CfnResource, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../infra/cdk/app';
import { BUCKET_DEPLOYMENT_FINDINGS, CONSOLE_DISTRIBUTION_FINDINGS } from '../infra/cdk/console-site';
import { routes } from '../functions/resources';
import { authorizerOf } from '#shared/routes/route';
import { multiRegionSealingKeyAlias, sealingKeyAlias } from '#shared/sealing-key';

// Every cdk-nag finding the stacks acknowledge instead of fixing, each held to what its reason says of the template.
const { app, api } = buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none' } }));

type Properties = Record<string, any>;
interface Found {
  logicalId: string;
  type: string;
  properties: Properties;
  template: Template;
}

const templates = new Map<Stack, Template>();
const templateOf = (stack: Stack) => templates.get(stack) ?? templates.set(stack, Template.fromStack(stack)).get(stack)!;

/** The CloudFormation resources a construct makes, as its stack's template has them. */
function resourcesOf(construct: IConstruct, type?: string): Found[] {
  return construct.node
    .findAll()
    .filter((child): child is CfnResource => CfnResource.isCfnResource(child) && (!type || child.cfnResourceType === type))
    .map((child) => {
      const stack = Stack.of(child);
      const logicalId = stack.getLogicalId(child);
      const template = templateOf(stack);
      return { logicalId, type: child.cfnResourceType, properties: template.toJSON().Resources[logicalId].Properties ?? {}, template };
    });
}
const one = (construct: IConstruct, type: string): Found => {
  const found = resourcesOf(construct, type);
  expect(found, `${construct.node.path}: one ${type}`).toHaveLength(1);
  return found[0]!;
};

interface Acknowledgement {
  construct: IConstruct;
  rule: string;
  reason: string;
}
const acknowledgements: Acknowledgement[] = app.node
  .findAll()
  .flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>).map(([rule, reason]) => ({ construct, rule: rule.replace(/^Annotation::/, ''), reason }))),
  );

const statementsOf = (construct: IConstruct) =>
  [...resourcesOf(construct, 'AWS::IAM::Policy'), ...resourcesOf(construct, 'AWS::IAM::ManagedPolicy')].flatMap((policy) => policy.properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
const actions = (statement: { Action: string | string[] }) => [statement.Action].flat().sort();
/** Every place in the API's templates a resource's logical id (or the nested stacks' parameter for it) is used, by the key holding it. */
const keysReferencing = (logicalIdPrefix: string) => {
  const keys: string[] = [];
  const walk = (value: unknown, key: string) => {
    if (typeof value === 'string') {
      if (value.includes(logicalIdPrefix)) keys.push(key);
    } else if (Array.isArray(value)) value.forEach((item) => walk(item, key));
    else if (value && typeof value === 'object') for (const [name, inner] of Object.entries(value)) walk(inner, name === 'Ref' || name === 'Fn::GetAtt' || name === 'Fn::Join' ? key : name);
  };
  for (const stack of [api, ...api.functionStacks.values()]) walk(templateOf(stack).toJSON().Resources, 'Resources');
  return keys;
};
/** What a nested stack's parameter carries: the parent's value for it, as the nested stack's resource passes it. */
const passed = (name: string): unknown =>
  Object.values(templateOf(api).findResources('AWS::CloudFormation::Stack') as Record<string, { Properties: Properties }>).find((stack) => stack.Properties.Parameters?.[name])?.Properties.Parameters[name];
/** The resource a `{ Ref }` in `template` names: its own, or the parent's one a parameter carries. */
const referenced = (template: Template, ref: string): { template: Template; logicalId: string; resource?: { Type: string; Properties: Properties } } => {
  const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Properties }>;
  if (resources[ref]) return { template, logicalId: ref, resource: resources[ref] };
  const value = passed(ref) as { Ref?: string } | undefined;
  return value?.Ref ? referenced(templateOf(api), value.Ref) : { template, logicalId: ref };
};
const methodPath = (method: Found) => {
  // The method's resource, walked up to the root (in whichever stack made each path), as the route table writes paths.
  const parts: string[] = [];
  for (let at = referenced(method.template, method.properties.ResourceId?.Ref); at.resource?.Type === 'AWS::ApiGateway::Resource'; at = referenced(at.template, at.resource.Properties.ParentId.Ref)) parts.unshift(at.resource.Properties.PathPart);
  return `/${parts.join('/')}`;
};
/** The authorizer a method names, in whichever stack it is. */
const authorizerProperties = (method: Found) => referenced(method.template, method.properties.AuthorizerId.Ref).resource!.Properties;

/** Each acknowledged rule, with the check that the template is as its reason says. */
/** The route of a method acknowledged as public: named first in the reason, with no authorizer at the gateway or in the table. */
function publicRouteOf({ construct, reason }: Acknowledgement) {
  const method = one(construct, 'AWS::ApiGateway::Method');
  const route = routes.find((candidate) => candidate.path === methodPath(method) && candidate.method === method.properties.HttpMethod)!;
  expect(reason.startsWith(`${route.method} ${route.path} `)).toBe(true);
  expect(method.properties.AuthorizationType).toBe('NONE');
  expect(authorizerOf(route)).toBeUndefined();
  return route;
}

const checks: { rule: RegExp; reason: RegExp; check: (ack: Acknowledgement) => void }[] = [
  {
    rule: /^AwsSolutions-(IAM4|IAM5|L1)(\[.*\])?$/,
    reason: /^The BucketDeployment function of CDK/,
    check: ({ construct, rule, reason }) => {
      // CDK's BucketDeployment function alone, which copies the console's files at deploy: not the API's stack.
      expect(construct.node.id).toMatch(/^Custom::CDKBucketDeployment/);
      expect(BUCKET_DEPLOYMENT_FINDINGS[rule]).toBe(reason);
      expect(resourcesOf(construct, 'AWS::Lambda::Function').map(({ logicalId }) => logicalId)).toEqual([expect.stringMatching(/^CustomCDKBucketDeployment/)]);
    },
  },
  {
    rule: /^AwsSolutions-S1$/,
    reason: /^The console’s built files/,
    check: ({ construct }) => {
      const bucket = one(construct, 'AWS::S3::Bucket');
      expect(bucket.properties.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
      // Read by CloudFront alone, by origin access control, for this stack's one distribution alone.
      const policy = Object.values(bucket.template.findResources('AWS::S3::BucketPolicy') as Record<string, { Properties: Properties }>)[0]!.Properties.PolicyDocument.Statement as { Principal?: { Service?: string }; Action: string; Condition?: unknown }[];
      const reads = policy.filter((statement) => statement.Action === 's3:GetObject');
      expect(reads.map((statement) => statement.Principal?.Service)).toEqual(['cloudfront.amazonaws.com']);
      const [distribution] = Object.keys(bucket.template.findResources('AWS::CloudFront::Distribution'));
      expect(JSON.stringify(reads[0]!.Condition)).toContain(`{"Ref":"${distribution}"}`);
      expect(JSON.stringify(reads[0]!.Condition)).not.toContain('distribution/*');
      // Referenced, not named: no name another account could claim; deleted with the stack, its files with their deployment.
      expect(bucket.properties.BucketName).toBeUndefined();
      expect((bucket.template.findResources('AWS::S3::Bucket') as Record<string, { DeletionPolicy?: string }>)[bucket.logicalId]!.DeletionPolicy).toBe('Delete');
      const copying = Template.fromStack(api.node.findChild('ConsoleFilesCopy') as NestedStack);
      const deployments = Object.values(copying.findResources('Custom::CDKBucketDeployment') as Record<string, { Properties: Properties }>);
      expect(deployments.map((deployment) => deployment.Properties.RetainOnDelete)).toEqual([false, false]);
    },
  },
  {
    rule: /^AwsSolutions-CFR[1-4]$/,
    reason: /./,
    check: ({ construct, rule, reason }) => {
      expect(CONSOLE_DISTRIBUTION_FINDINGS[rule]).toBe(reason);
      const distribution = one(construct, 'AWS::CloudFront::Distribution');
      // No error page anywhere: an API's 401 or 404 stays the API's, never the console's HTML.
      expect(distribution.properties.DistributionConfig.CustomErrorResponses).toBeUndefined();
      // The API behind it: every path but the console's, uncached.
      expect(distribution.properties.DistributionConfig.DefaultCacheBehavior.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
    },
  },
  {
    rule: /^AwsSolutions-IAM5\[Resource::\*\]$/,
    reason: /X-Ray PutTraceSegments and PutTelemetryRecords/,
    check: ({ construct }) => {
      const wildcard = statementsOf(construct).filter((statement) => JSON.stringify(statement.Resource) === '"*"');
      expect(wildcard.flatMap(actions)).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
      // Traced (a function with no tracing would need no X-Ray grant): actively behind the API, by its callers' traces in the events stack.
      expect(one(construct, 'AWS::Lambda::Function').properties.TracingConfig).toEqual({ Mode: Stack.of(construct).stackName === 'SalesPipelineEvents' ? 'PassThrough' : 'Active' });
    },
  },
  {
    rule: /^AwsSolutions-IAM5\[Resource::arn:<AWS::Partition>:sms-voice:.*:<AWS::AccountId>:(phone-number|pool|sender-id)\/\*\]$/,
    reason: /which number, pool or sender id an SMS leaves from/i,
    check: ({ construct, rule }) => {
      const kind = /:(phone-number|pool|sender-id)\/\*/.exec(rule)![1]!;
      const granting = statementsOf(construct).filter((statement) => JSON.stringify(statement.Resource).includes(`:${kind}/*`));
      expect(granting.flatMap(actions)).toEqual(['sms-voice:SendTextMessage']);
      expect(JSON.stringify(granting[0]!.Resource)).toContain(':configuration-set/');
    },
  },
  {
    rule: /^AwsSolutions-IAM5\[Resource::arn:<AWS::Partition>:kms:.*:<AWS::AccountId>:key\/\*\]$/,
    reason: /only for the key that alias names \(kms:ResourceAliases\)/,
    check: ({ construct }) => {
      const granting = statementsOf(construct).filter((statement) => JSON.stringify(statement.Resource).includes(':key/*'));
      // A function that seals, one that opens, or one that does both: never none, never another action.
      expect([['kms:Decrypt'], ['kms:GenerateDataKey'], ['kms:Decrypt', 'kms:GenerateDataKey']]).toContainEqual([...new Set(granting.flatMap(actions))].sort());
      for (const statement of granting as { Action: string | string[]; Condition?: unknown }[]) {
        expect(actions(statement).every((action) => action === 'kms:Decrypt' || action === 'kms:GenerateDataKey')).toBe(true);
        const theAlias = { 'ForAnyValue:StringEquals': { 'kms:ResourceAliases': [sealingKeyAlias('sales-pipeline'), multiRegionSealingKeyAlias('sales-pipeline')] } };
        // The tenant-data role's (the one managed policy): for the session's organization's secrets alone.
        const forTheSession = resourcesOf(construct, 'AWS::IAM::ManagedPolicy').length > 0;
        expect(statement.Condition).toEqual(forTheSession ? { ...theAlias, StringEquals: { 'kms:EncryptionContext:organizationId': '${aws:PrincipalTag/organizationId}' } } : theAlias);
      }
    },
  },
  {
    rule: /^AwsSolutions-IAM5\[Resource::arn:<AWS::Partition>:scheduler:.*:<AWS::AccountId>:schedule\/[\w.-]+\/\*\]$/,
    reason: /Schedules are named by the run and step they wake/,
    check: ({ construct, rule }) => {
      const group = /:schedule\/([\w.-]+)\/\*/.exec(rule)![1]!;
      const granting = statementsOf(construct).filter((statement) => JSON.stringify(statement.Resource).includes(`:schedule/${group}/*`));
      expect(granting.flatMap(actions)).toEqual(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule']);
      // The one group the stack made for them, and nothing else of Scheduler's.
      const groups = Object.values(templateOf(Stack.of(construct)).findResources('AWS::Scheduler::ScheduleGroup') as Record<string, { Properties: Properties }>);
      expect(groups.map((found) => found.Properties.Name)).toContain(group);
      expect(statementsOf(construct).flatMap(actions).filter((action) => action.startsWith('scheduler:'))).toEqual(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule']);
    },
  },
  {
    rule: /^AwsSolutions-IAM4\[Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AWSCodeDeployRoleForLambdaLimited\]$/,
    reason: /CodeDeploy shifting Lambda aliases/,
    check: ({ construct }) => {
      const role = one(construct, 'AWS::IAM::Role');
      expect(JSON.stringify(role.properties.ManagedPolicyArns)).toMatch(/^\[\{"Fn::Join":\["",\["arn:",\{"Ref":"AWS::Partition"\},":iam::aws:policy\/service-role\/AWSCodeDeployRoleForLambdaLimited"\]\]\}\]$/);
      expect(role.properties.AssumeRolePolicyDocument.Statement).toEqual([expect.objectContaining({ Principal: { Service: 'codedeploy.amazonaws.com' } })]);
      expect(resourcesOf(construct, 'AWS::IAM::Policy')).toEqual([]);
    },
  },
  {
    rule: /^AwsSolutions-IAM4\[Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AmazonAPIGatewayPushToCloudWatchLogs\]$/,
    reason: /lets API Gateway write the stage execution and access logs/,
    check: ({ construct }) => {
      const [role] = resourcesOf(construct, 'AWS::IAM::Role');
      expect(JSON.stringify(role!.properties.ManagedPolicyArns)).toContain('AmazonAPIGatewayPushToCloudWatchLogs');
      expect(role!.properties.ManagedPolicyArns).toHaveLength(1);
      expect(role!.properties.AssumeRolePolicyDocument.Statement).toEqual([expect.objectContaining({ Principal: { Service: 'apigateway.amazonaws.com' } })]);
      expect(one(construct, 'AWS::ApiGateway::Account').properties.CloudWatchRoleArn).toEqual({ 'Fn::GetAtt': [role!.logicalId, 'Arn'] });
    },
  },
  {
    rule: /^AwsSolutions-IAM4\[Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AWSBackupServiceRolePolicyFor(Backup|Restores)\]$/,
    reason: /AWS's managed policy for AWS Backup to back up and restore the resources a backup plan selects/,
    check: ({ construct, rule }) => {
      const role = one(construct, 'AWS::IAM::Role');
      expect(role.properties.AssumeRolePolicyDocument.Statement).toEqual([expect.objectContaining({ Principal: { Service: 'backup.amazonaws.com' } })]);
      expect(JSON.stringify(role.properties.ManagedPolicyArns)).toContain(rule.match(/AWSBackupServiceRolePolicyFor\w+/)![0]);
      expect(resourcesOf(construct, 'AWS::IAM::Policy')).toEqual([]);
      // It is the role of the one selection, which holds the table and nothing else.
      const selections = Object.values(role.template.findResources('AWS::Backup::BackupSelection') as Record<string, { Properties: Properties }>);
      expect(selections.map((selection) => selection.Properties.BackupSelection)).toEqual([
        expect.objectContaining({ IamRoleArn: { 'Fn::GetAtt': [role.logicalId, 'Arn'] }, Resources: [{ 'Fn::GetAtt': [expect.stringMatching(/^Table/), 'Arn'] }] }),
      ]);
    },
  },
  {
    rule: /^AwsSolutions-SMG4$/,
    reason: /signs pagination cursors, which live minutes: it is replaced by hand .* still verify the previous one/,
    check: ({ construct }) => {
      const secret = one(construct, 'AWS::SecretsManager::Secret');
      expect(Object.keys(secret.template.findResources('AWS::SecretsManager::RotationSchedule'))).toEqual([]);
      // The secret reaches the functions as its ARN (CURSOR_SECRET_ARN) and in their read grants, never as its value.
      const uses = keysReferencing(secret.logicalId.replace(/[0-9A-F]{8}$/, ''));
      expect(new Set(uses.filter((key) => key !== 'Resources' && key !== 'Parameters' && !/^referenceto/.test(key)))).toEqual(new Set(['CURSOR_SECRET_ARN', 'Resource']));
      // The only values the templates resolve are the origin secrets' (the next check).
      const templates = JSON.stringify([api, ...api.functionStacks.values()].map((stack) => templateOf(stack).toJSON()));
      expect([...templates.matchAll(/resolve:secretsmanager:",\{"Ref":"(\w+)"\}/g)].map((match) => match[1]!.replace(/[0-9A-F]{8}$/, ''))).toEqual(expect.arrayContaining(['OriginSecret']));
      expect(templates.match(/resolve:secretsmanager/g)?.length).toBe([...templates.matchAll(/resolve:secretsmanager:",\{"Ref":"OriginSecret(Previous)?[0-9A-F]{8}"\}/g)].length);
    },
  },
  {
    rule: /^AwsSolutions-SMG4$/,
    reason: /Rotated by hand as docs\/operations.md says/,
    check: ({ construct }) => {
      const secret = one(construct, 'AWS::SecretsManager::Secret');
      expect(secret.logicalId).toMatch(/^OriginSecret(Previous)?[0-9A-F]{8}$/);
      // Resolved at deploy into the distribution's origin header (the current one) and the firewall's first rule (both):
      // the templates name it, never hold it.
      const resolved = (found: Found) => JSON.stringify(found.properties).includes(`resolve:secretsmanager:",{"Ref":"${secret.logicalId}"}`);
      const users = [...resourcesOf(Stack.of(construct), 'AWS::CloudFront::Distribution'), ...resourcesOf(Stack.of(construct), 'AWS::WAFv2::WebACL')].filter(resolved).map((found) => found.type);
      expect(users).toEqual(secret.logicalId.startsWith('OriginSecretPrevious') ? ['AWS::WAFv2::WebACL'] : ['AWS::CloudFront::Distribution', 'AWS::WAFv2::WebACL']);
    },
  },
  {
    rule: /^AwsSolutions-SNS2$/,
    reason: /alarm notifications|SSE with the AWS managed key/i,
    check: ({ construct }) => {
      const topic = one(construct, 'AWS::SNS::Topic');
      expect(topic.properties.KmsMasterKeyId).toBeUndefined();
      const policies = Object.values(topic.template.findResources('AWS::SNS::TopicPolicy') as Record<string, { Properties: Properties }>).filter((policy) => JSON.stringify(policy.Properties.Topics).includes(topic.logicalId));
      const publishers = policies.flatMap((policy) => policy.Properties.PolicyDocument.Statement as { Effect: string; Action: string; Principal?: unknown; Condition?: unknown }[]).filter((statement) => statement.Effect === 'Allow');
      // Allowed publishers: End User Messaging from this account only; otherwise the topic's users are alarms and subscriptions of its own stack.
      for (const statement of publishers) expect(statement).toMatchObject({ Action: 'sns:Publish', Principal: { Service: 'sms-voice.amazonaws.com' }, Condition: { StringEquals: { 'aws:SourceAccount': expect.anything() } } });
      const alarms = Object.values(topic.template.findResources('AWS::CloudWatch::Alarm') as Record<string, { Properties: Properties }>).filter((alarm) => JSON.stringify(alarm.Properties.AlarmActions ?? []).includes(topic.logicalId));
      if (publishers.length === 0) expect(alarms.length).toBeGreaterThan(0);
    },
  },
  {
    rule: /^AwsSolutions-SQS3$/,
    reason: /A dead-letter queue, or a queue with its own dead-letter queue/,
    check: ({ construct }) => {
      const queue = one(construct, 'AWS::SQS::Queue');
      const json = JSON.stringify(queue.template.toJSON().Resources);
      const target = `{"Fn::GetAtt":["${queue.logicalId}","Arn"]}`;
      const isDeadLetterQueue = json.includes(`"deadLetterTargetArn":${target}`) || json.includes(`"OnFailure":{"Destination":${target}}`);
      expect(Boolean(queue.properties.RedrivePolicy) || isDeadLetterQueue, construct.node.path).toBe(true);
    },
  },
  {
    rule: /^AwsSolutions-SQS3$/,
    reason: /The dead letters of one-time schedules/,
    check: ({ construct }) => {
      const queue = one(construct, 'AWS::SQS::Queue');
      const target = JSON.stringify({ 'Fn::GetAtt': [queue.logicalId, 'Arn'] });
      const resources = Object.values(queue.template.toJSON().Resources as Record<string, { Type: string; Properties: Properties }>);
      // Scheduler's role may send to it, and a function that makes schedules is given it to name.
      const schedulerRoles = resources.filter((resource) => resource.Type === 'AWS::IAM::Role' && JSON.stringify(resource.Properties.AssumeRolePolicyDocument).includes('scheduler.amazonaws.com'));
      expect(schedulerRoles).toHaveLength(1);
      const sending = resources.filter((resource) => resource.Type === 'AWS::IAM::Policy' && JSON.stringify(resource.Properties.PolicyDocument).includes(target));
      expect(sending.flatMap((policy) => (policy.Properties.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap(actions))).toContain('sqs:SendMessage');
      expect(resources.some((resource) => resource.Type === 'AWS::Lambda::Function' && JSON.stringify(resource.Properties.Environment?.Variables ?? {}).includes(target))).toBe(true);
    },
  },
  {
    rule: /^AwsSolutions-APIG2$/,
    reason: /validates path, query and body with the same valibot schemas/,
    check: ({ construct }) => {
      // No request validator in the gateway (hence the finding): each route's own schemas validate its path.
      expect(Object.keys(templateOf(Stack.of(construct)).findResources('AWS::ApiGateway::RequestValidator'))).toEqual([]);
      // Every path parameter is named by its route's path schema, which validates it.
      for (const route of routes.filter((candidate) => candidate.path.includes('{'))) {
        const schema = (route.request as { path?: { entries: Record<string, unknown> } }).path;
        expect(Object.keys(schema?.entries ?? {}).sort(), route.operationId).toEqual([...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name).sort());
      }
    },
  },
  {
    rule: /^AwsSolutions-COG4$/,
    reason: /^Callers are integrations holding API keys, checked by the Lambda REQUEST authorizer/,
    check: ({ construct }) => {
      const method = one(construct, 'AWS::ApiGateway::Method');
      expect(method.properties).toMatchObject({ AuthorizationType: 'CUSTOM', ApiKeyRequired: true });
      expect(authorizerProperties(method)).toMatchObject({ Type: 'REQUEST', IdentitySource: 'method.request.header.Authorization' });
    },
  },
  {
    rule: /^AwsSolutions-COG4$/,
    reason: /^Senders are web forms and email parsers holding an inbound endpoint’s token or signing secret/,
    check: ({ construct }) => {
      const method = one(construct, 'AWS::ApiGateway::Method');
      const route = routes.find((candidate) => candidate.path === methodPath(method) && candidate.method === (method.properties.HttpMethod === 'OPTIONS' ? candidate.method : method.properties.HttpMethod));
      expect(route && authorizerOf(route)).toBe('inboundEndpoint');
      expect(authorizerProperties(method)).toMatchObject({ Type: 'REQUEST', AuthorizerResultTtlInSeconds: 0 });
    },
  },
  {
    rule: /^AwsSolutions-(APIG4|COG4)$/,
    reason: /is public by design: the API's own description and reference page/,
    check: (ack) => {
      const route = publicRouteOf(ack);
      expect([route.tag, route.method]).toEqual(['Reference', 'GET']);
    },
  },
  {
    rule: /^AwsSolutions-(APIG4|COG4)$/,
    reason: /is public by design: OAuth's metadata, registration, consent and token endpoints, which a client calls before it holds a token/,
    check: (ack) => {
      const route = publicRouteOf(ack);
      expect([route.tag, route.resource, route.auth]).toEqual(['OAuth', 'oauth', 'none']);
    },
  },
  {
    rule: /^AwsSolutions-(APIG4|COG4)$/,
    reason: /is public by design: the console's sign-in, which a person calls before they hold a session/,
    check: (ack) => {
      const route = publicRouteOf(ack);
      expect([route.resource, route.auth, route.path.startsWith('/v1/sign-in/')]).toEqual(['sign-in', 'none', true]);
    },
  },
  {
    rule: /^AwsSolutions-(APIG4|COG4)$/,
    reason: /^ANY .* answers only 405 with the path's methods, from a mock integration/,
    check: ({ construct, reason }) => {
      const method = one(construct, 'AWS::ApiGateway::Method');
      expect(reason.startsWith(`ANY ${methodPath(method)} `)).toBe(true);
      expect(method.properties).toMatchObject({ HttpMethod: 'ANY', AuthorizationType: 'NONE', Integration: { Type: 'MOCK' } });
      expect(method.properties.MethodResponses.map((response: { StatusCode: string }) => response.StatusCode)).toEqual(['405']);
      expect(method.properties.Integration.IntegrationResponses.map((response: { StatusCode: string }) => response.StatusCode)).toEqual(['405']);
    },
  },
  {
    rule: /^AwsSolutions-(APIG4|COG4)$/,
    reason: /^ANY \/ answers only 404 NOT_FOUND, as any unknown path, from a mock integration/,
    check: ({ construct }) => {
      const method = one(construct, 'AWS::ApiGateway::Method');
      expect(methodPath(method)).toBe('/');
      expect(method.properties).toMatchObject({ HttpMethod: 'ANY', AuthorizationType: 'NONE', Integration: { Type: 'MOCK' } });
      expect(method.properties.MethodResponses.map((response: { StatusCode: string }) => response.StatusCode)).toEqual(['404']);
      expect(method.properties.Integration.IntegrationResponses.map((response: { StatusCode: string }) => response.StatusCode)).toEqual(['404']);
    },
  },
];

describe('cdk-nag acknowledgements', () => {
  it('are each held to their reason by a check below', () => {
    expect(acknowledgements.length).toBeGreaterThan(100);
    const unchecked = acknowledgements.filter(({ rule, reason }) => !checks.some((check) => check.rule.test(rule) && check.reason.test(reason)));
    expect(unchecked.map(({ construct, rule, reason }) => `${construct.node.path}: ${rule}: ${reason}`)).toEqual([]);
  });

  it.each(checks.map((check) => [`${check.rule.source} (${check.reason.source})`, check] as const))('%s: each acknowledgement’s reason matches its template', (_, check) => {
    const matching = acknowledgements.filter(({ rule, reason }) => check.rule.test(rule) && check.reason.test(reason));
    expect(matching.length).toBeGreaterThan(0);
    for (const acknowledgement of matching) check.check(acknowledgement);
  });
});

describe("CloudFormation's own validation at synth", () => {
  // The suite turns it off (test/support/table-per-file.ts): these run it as `cdk synth` and `cdk deploy` do.
  const validating = <T>(synthesize: () => T): T => {
    const suite = process.env.CDK_VALIDATION;
    delete process.env.CDK_VALIDATION;
    try {
      return synthesize();
    } finally {
      process.env.CDK_VALIDATION = suite;
    }
  };
  const cdkContext = (JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> }).context;
  const withQueue = (context: Record<string, unknown>) => {
    const app = new App({ context });
    new CfnResource(new Stack(app, 'Queue'), 'Queue', { type: 'AWS::SQS::Queue', properties: { VisibilityTimeout: 'soon' } });
    return app;
  };

  it('fails the synth of a template CloudFormation would refuse, with cdk.json’s context, where the CDK alone only warns', () => {
    expect(cdkContext['@aws-cdk/core:validateAgainstDefaultRules']).toBe(true);
    expect(() => validating(() => withQueue(cdkContext).synth())).toThrow(/VisibilityTimeout: 'soon' is not of type 'integer'/);
    expect(() => validating(() => withQueue({}).synth())).not.toThrow();
  });

  it('passes the app with every option that adds a stack or a resource on', () => {
    const options = { analytics: 'true', secretsKeyReplicaRegion: 'ap-southeast-4', backupCopyRegion: 'ap-southeast-4', smsOriginationIdentity: 'pool-0123456789abcdef' };
    const built = buildApp(new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], alarmEmail: 'none', ...options } }));
    const assembly = validating(() => built.app.synth());
    expect(assembly.stacks.map((stack) => stack.stackName).sort()).toEqual([
      'SalesPipelineAnalytics',
      'SalesPipelineApi',
      'SalesPipelineBackupCopy',
      'SalesPipelineData',
      'SalesPipelineEvents',
      'SalesPipelineSecretsKeyReplica',
    ]);
  });
});
