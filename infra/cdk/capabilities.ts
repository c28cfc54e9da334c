import { Stack, Tags, Token, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
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

/** A capability's IAM statements on the function's role, each wildcard resource acknowledged with the capability's reason. */
export function grantCapabilities(fn: ServiceFunction, capabilities: readonly Capability[], where: CapabilityContext): void {
  const stack = Stack.of(fn);
  for (const capability of capabilities) {
    for (const { actions, resources, conditions } of capability.statements(where)) fn.function.addToRolePolicy(new PolicyStatement({ actions, resources, ...(conditions ? { conditions } : {}) }));
    for (const [key, value] of Object.entries(capability.roleTags?.(where) ?? {})) Tags.of(fn.function.role!).add(key, value);
    const wildcards = capability.statements(asFindingsName(where, stack)).flatMap((statement) => statement.resources.filter((resource) => resource.endsWith('*')));
    for (const resource of wildcards) {
      if (!capability.wildcardReason) throw new Error(`The capability ${capability.name} grants ${resource} without a wildcardReason`);
      Validations.of(fn).acknowledge({ id: `AwsSolutions-IAM5[Resource::${resource}]`, reason: capability.wildcardReason });
    }
  }
}
