import { Stack, Tags, Token, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';
import type { Capability, CapabilityContext } from '#shared/routes/route';
import type { DeploymentOptions } from './options';
import type { ServiceFunction } from './service-function';

/** Where a function of `stack` is deployed, as capabilities read it: the stack's tokens and the deployment's options. */
export function capabilityContext(stack: Stack, options: DeploymentOptions): CapabilityContext {
  const setting = (name: string) => {
    const value: unknown = (options as unknown as Record<string, unknown>)[name];
    // A flag set (`-c samLocal=true`) reads as 'true'.
    return typeof value === 'string' ? value : value === true ? 'true' : undefined;
  };
  return { tableName: options.tableName, partition: stack.partition, region: stack.region, account: stack.account, urlSuffix: stack.urlSuffix, setting };
}

/** The same, as cdk-nag writes a resource in a finding's id (`arn:<AWS::Partition>:…`). */
function asFindingsName(where: CapabilityContext, stack: Stack): CapabilityContext {
  return { ...where, partition: '<AWS::Partition>', region: Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region, account: '<AWS::AccountId>' };
}

/** A capability's settings, for the function's environment. */
export const capabilityEnvironment = (capabilities: readonly Capability[], where: CapabilityContext): Record<string, string> =>
  Object.assign({}, ...capabilities.map((capability) => capability.environment(where)));

/**
 * A capability's IAM statements on the function's role, each wildcard resource acknowledged with the capability's
 * reason. A keyed route's (`forOrganization`) capabilities that act for the organization are its session's, granted by
 * the tenant-data role (./tenant-data-role.ts), not its own role's.
 */
export function grantCapabilities(fn: ServiceFunction, capabilities: readonly Capability[], where: CapabilityContext, { forOrganization = false } = {}): void {
  const stack = Stack.of(fn);
  for (const capability of capabilities) {
    if (forOrganization && capability.sessionStatements) continue;
    for (const { actions, resources, conditions } of capability.statements(where)) fn.function.addToRolePolicy(new PolicyStatement({ actions, resources, ...(conditions ? { conditions } : {}) }));
    for (const [key, value] of Object.entries(capability.roleTags?.(where) ?? {})) Tags.of(fn.function.role!).add(key, value);
    acknowledgeWildcards(fn, capability, capability.statements(asFindingsName(where, stack)).flatMap((statement) => statement.resources));
  }
}

/** Each resource of a capability's that ends in a wildcard, acknowledged on `scope` with the capability's reason (cdk-nag's IAM5). */
export function acknowledgeWildcards(scope: IConstruct, capability: Capability, resources: readonly string[]): void {
  for (const resource of resources.filter((candidate) => candidate.endsWith('*'))) {
    if (!capability.wildcardReason) throw new Error(`The capability ${capability.name} grants ${resource} without a wildcardReason`);
    Validations.of(scope).acknowledge({ id: `AwsSolutions-IAM5[Resource::${resource}]`, reason: capability.wildcardReason });
  }
}

/** The tenant-data role's statements of the capabilities it takes, as cdk-nag names their resources. */
export const sessionResourcesForFindings = (capability: Capability, where: CapabilityContext, stack: Stack): string[] =>
  (capability.sessionStatements?.(asFindingsName(where, stack), 'organization') ?? []).flatMap((statement) => statement.Resource);
