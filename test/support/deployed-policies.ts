import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { expect } from 'vitest';
import { config } from '#shared/config';
import { ORGANIZATION_TAG, routeSessionPolicy, sharedPartitionsOf, type PolicyDocument } from '#shared/tenancy/policies';
import { sealingKeyAlias } from '#shared/sealing-key';
import { buildApp } from '../../infra/cdk/app';
import { tenantDataRoleName } from '../../infra/cdk/tenant-data-role';
import { LOCAL_ACCOUNT, LOCAL_REGION, type IamRequest } from '../../infra/local/aws-calls';
import { allows, tenantPrincipal, type RecordedCall } from '../../infra/local/strict-access';
import { routes } from '../../functions/resources';

/**
 * The synthesized templates' IAM, as deployed in the local account and region: the tenant-data role's policy and tags,
 * each function's own role, the sealing key's policy; and IAM's decision on a recorded call under them (the strict
 * mode's evaluation, infra/local/strict-access.ts, on the deployed documents rather than the code's).
 */
export const DEPLOYED_TABLE = 'sales-pipeline';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type Resource = { Type: string; Properties: Record<string, Json> };

const { api: apiStack, events, data } = buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none' } }));
type Outputs = Record<string, { Value: Json; Export?: { Name: string } }>;
const parent = Template.fromStack(apiStack).toJSON() as { Resources: Record<string, Resource>; Outputs?: Outputs };
/** The stacks of routes past the API stack's operation: they hold nested stacks of their own, and import the API stack's exports. */
const routeRoots = apiStack.routeStacks.map((stack) => Template.fromStack(stack).toJSON() as { Resources: Record<string, Resource> });
const nested = [...apiStack.functionStacks.values()].map((stack) => Template.fromStack(stack).toJSON() as { Resources: Record<string, Resource> });
const eventsTemplate = Template.fromStack(events).toJSON() as { Resources: Record<string, Resource> };
const dataTemplate = Template.fromStack(data).toJSON() as { Resources: Record<string, Resource> };
/** What the parent hands each nested stack, by parameter name. */
const passed: Record<string, Json> = Object.assign({}, ...[parent, ...routeRoots].flatMap((template) => Object.values(template.Resources)).filter((r) => r.Type === 'AWS::CloudFormation::Stack').map((r) => r.Properties.Parameters ?? {}));
/** What the API stack exports, by export name: a stack of routes imports it. */
const exported: Record<string, Json> = Object.fromEntries(Object.values(parent.Outputs ?? {}).flatMap((output) => (output.Export ? [[output.Export.Name, output.Value]] : [])));

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
  if ('Fn::ImportValue' in value) {
    const name = value['Fn::ImportValue'] as string;
    if (!(name in exported)) throw new Error(`No stack exports ${name}`);
    return resolved(exported[name]!);
  }
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolved(inner)]));
}

export const TABLE_ARN = `arn:aws:dynamodb:${LOCAL_REGION}:${LOCAL_ACCOUNT}:table/${DEPLOYED_TABLE}`;

/** The tenant-data role's policy, as deployed (the events stack makes it). */
export const tenantPolicy = resolved(Object.values(eventsTemplate.Resources).find((r) => r.Type === 'AWS::IAM::ManagedPolicy' && String(r.Properties.Description).includes('LeadingKeys'))!.Properties.PolicyDocument!) as unknown as PolicyDocument;

/** A role's tags, as deployed: those a key's policy admits it by. */
const tagsOf = (role: Resource): Record<string, string> => Object.fromEntries(((role.Properties.Tags ?? []) as { Key: string; Value: string }[]).map(({ Key, Value }) => [Key, Value]));
const roles = [parent, ...routeRoots, ...nested, eventsTemplate].flatMap((template) => Object.entries(template.Resources).filter(([, r]) => r.Type === 'AWS::IAM::Role'));
export const tenantRoleTags = tagsOf(roles.find(([, r]) => r.Properties.RoleName === tenantDataRoleName(DEPLOYED_TABLE))![1]);
export const ownRoleTags = (functionId: string) => tagsOf(roles.find(([logicalId]) => logicalId.startsWith(`${functionId}Role`))?.[1] ?? { Type: '', Properties: {} });

/** The sealing key's policy, as deployed (the data stack makes it): a call to the key needs it as well as the caller's. */
const keyPolicy = resolved(Object.values(dataTemplate.Resources).find((r) => r.Type === 'AWS::KMS::Key')!.Properties.KeyPolicy!);

/** A function's own role's policy (its construct id), as deployed: its statements, whichever templates hold them. */
export function ownPolicy(functionId: string): PolicyDocument {
  const statements = [parent, ...routeRoots, ...nested, eventsTemplate].flatMap((template) =>
    Object.entries(template.Resources)
      .filter(([logicalId, r]) => r.Type === 'AWS::IAM::Policy' && logicalId.startsWith(`${functionId}Role`))
      .flatMap(([, r]) => (r.Properties.PolicyDocument as { Statement: Json[] }).Statement),
  );
  return { Version: '2012-10-17', Statement: resolved(statements) as never };
}

/** The request as IAM sees it deployed: on the deployed table (and the deployed key's alias), not the test's. */
export const deployed = (request: IamRequest): IamRequest =>
  JSON.parse(JSON.stringify(request).replaceAll(`table/${config.tableName}`, `table/${DEPLOYED_TABLE}`).replaceAll(sealingKeyAlias(config.tableName), sealingKeyAlias(DEPLOYED_TABLE))) as IamRequest;

/** IAM's decision (the strict mode's evaluation, on the deployed policies): a session's, with its tags; a role's, with its own. */
export function decision(principal: string, policy: PolicyDocument, request: IamRequest, organization?: string, tags: Record<string, string> = {}): string {
  const resourcePolicy = request.action.startsWith('kms:') ? keyPolicy : undefined;
  return allows(request, { identity: policy, principal, tags: { ...tags, ...(organization ? { [ORGANIZATION_TAG]: organization } : {}) }, resourcePolicy }) ? 'Allowed' : 'Denied';
}

/** Whether every key a request names is in a named shared partition (which any organization's session may reach). */
export const onlyShared = (request: IamRequest) => request.leadingKeys.length > 0 && request.leadingKeys.every((key) => sharedPartitionsOf(routes).some(({ keys }) => key.startsWith(keys.replace(/\*$/, ''))));

/**
 * Whether a keyed route's recorded call is allowed as deployed for its session's organization, by the role's policy
 * and its route's session policy both; and denied to another organization and to one whose id is this one's less its
 * last character (a prefix widened by one), unless every key is in a named shared partition.
 */
export function expectTenantCallAsDeployed(call: RecordedCall): void {
  const { organizationId, grant, grantName, sessionKeys, itemId } = call.session!;
  const session = routeSessionPolicy(grant, TABLE_ARN, organizationId, sessionKeys, itemId);
  for (const request of call.requests.map(deployed)) {
    const what = `${grantName}: ${request.action} on ${request.resource.replace(/^.*:(table|key)\//, '')} [${request.leadingKeys.join(', ')}]`;
    expect(decision(tenantPrincipal(organizationId), tenantPolicy, request, organizationId, tenantRoleTags), what).toBe('Allowed');
    expect(decision(tenantPrincipal(organizationId), session, request, organizationId, tenantRoleTags), `${what} (session policy)`).toBe('Allowed');
    if (onlyShared(request)) continue;
    for (const other of ['org_01ANOTHERORGANIZATION0000', organizationId.slice(0, -1)]) {
      expect(decision(tenantPrincipal(other), tenantPolicy, request, other, tenantRoleTags), `${what} as ${other}`).toBe('Denied');
    }
  }
}
