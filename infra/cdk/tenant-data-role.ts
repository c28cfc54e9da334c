import { Stack, Tags } from 'aws-cdk-lib';
import { acknowledgeWildcards, sessionResourcesForFindings } from './capabilities';
import { AccountRootPrincipal, ManagedPolicy, PolicyDocument, PolicyStatement, Role, type IRole } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { SERVICE_ROLE_PATH } from '#shared/iam';
import { ORGANIZATION_TAG, tenantCapabilityStatements, tenantDataPolicy, TENANT_ROLE_VARIABLES } from '#shared/tenancy/policies';
import type { SharedPartition } from '#shared/table';
import type { Capability, CapabilityContext } from '#shared/routes/route';

/** The tag a function's role carries when it may assume the tenant-data role; the trust policy asks for it. */
export const TENANT_ACCESS_TAG = { key: 'sales-pipeline:tenant-access', value: 'route' } as const;

/**
 * The role's name, from the table's: the events stack makes the role, and the API stack, deployed after it, finds it
 * by name, with no cross-stack export (as the events stack finds the table).
 */
export const tenantDataRoleName = (tableName: string) => `${tableName}-tenant-data`;

/** Where a function admitted to tenant sessions finds the role and the table its session policies name. */
export interface TenantDataAccess {
  roleArn: string;
  tableArn: string;
}

/** The role, found by name from another stack. */
export const tenantDataAccessIn = (stack: Stack, table: ITableV2, tableName: string): TenantDataAccess => ({
  roleArn: stack.formatArn({ service: 'iam', region: '', resource: 'role', resourceName: `${SERVICE_ROLE_PATH.slice(1)}${tenantDataRoleName(tableName)}` }),
  tableArn: table.tableArn,
});

/** What the trust policy asks of a caller and its session: the caller's role tag, and exactly the organization's tag. */
const ADMITTED = {
  StringEquals: { [`aws:PrincipalTag/${TENANT_ACCESS_TAG.key}`]: TENANT_ACCESS_TAG.value },
  StringLike: { [`aws:RequestTag/${ORGANIZATION_TAG}`]: 'org_?*' },
  'ForAllValues:StringEquals': { 'aws:TagKeys': [ORGANIZATION_TAG] },
};

/**
 * The role every keyed route's calls are signed with, assumed per organization (shared/tenancy/credentials.ts): its one
 * managed policy allows the route actions only on keys that begin with the session's organization. The trust policy
 * names the account and asks the caller's role for TENANT_ACCESS_TAG (a list of every route's role would pass the
 * trust policy's size limit), the session for exactly one tag, the organization; each admitted function's role names
 * this role in its own policy too, so both sides must agree.
 */
export class TenantDataRole extends Construct {
  readonly role: Role;
  readonly access: TenantDataAccess;

  constructor(
    scope: Construct,
    id: string,
    { table, where, sharedPartitions, capabilities }: { table: ITableV2; where: CapabilityContext; sharedPartitions: readonly SharedPartition[]; capabilities: readonly Capability[] },
  ) {
    super(scope, id);
    const policy = new ManagedPolicy(this, 'Policy', {
      description: "Route actions on the keys of the session's organization alone (dynamodb:LeadingKeys), and its sealed secrets alone (kms:EncryptionContext)",
      document: PolicyDocument.fromJson(tenantDataPolicy(table.tableArn, sharedPartitions, tenantCapabilityStatements(capabilities, where))),
    });
    for (const capability of capabilities) acknowledgeWildcards(policy, capability, sessionResourcesForFindings(capability, where, Stack.of(this)));
    this.role = new Role(this, 'Role', {
      roleName: tenantDataRoleName(where.tableName),
      path: SERVICE_ROLE_PATH,
      description: "Assumed by each keyed route's function for one organization at a time, tagged with it",
      assumedBy: new AccountRootPrincipal().withConditions(ADMITTED),
      managedPolicies: [policy],
    });
    // The session tag needs sts:TagSession beside sts:AssumeRole, with the same conditions.
    this.role.assumeRolePolicy!.addStatements(new PolicyStatement({ actions: ['sts:TagSession'], principals: [new AccountRootPrincipal()], conditions: ADMITTED }));
    // The tags a resource's own policy admits a capability's callers by (the sealing key's): the sessions make those calls.
    for (const capability of capabilities) for (const [key, value] of Object.entries(capability.roleTags?.(where) ?? {})) Tags.of(this.role).add(key, value);
    this.access = { roleArn: this.role.roleArn, tableArn: table.tableArn };
  }
}

/** Lets a function assume the tenant-data role (a keyed route's, the isolation canary's), and tells it where the role and the table are. */
export function admitToTenantData(fn: LambdaFunction, role: IRole, { roleArn, tableArn }: TenantDataAccess): void {
  Tags.of(role).add(TENANT_ACCESS_TAG.key, TENANT_ACCESS_TAG.value);
  fn.addToRolePolicy(new PolicyStatement({ actions: ['sts:AssumeRole', 'sts:TagSession'], resources: [roleArn] }));
  fn.addEnvironment(TENANT_ROLE_VARIABLES.role, roleArn);
  fn.addEnvironment(TENANT_ROLE_VARIABLES.table, tableArn);
}
