import { Tags } from 'aws-cdk-lib';
import { AccountRootPrincipal, ManagedPolicy, PolicyDocument, PolicyStatement, Role, type IRole } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { ORGANIZATION_TAG, tenantDataPolicy, TENANT_ROLE_VARIABLES } from '#shared/tenancy/policies';
import type { SharedPartition } from '#shared/table';

/** The tag a function's role carries when it may assume the tenant-data role; the trust policy asks for it. */
export const TENANT_ACCESS_TAG = { key: 'sales-pipeline:tenant-access', value: 'route' } as const;

/**
 * The role every keyed route's calls are signed with, assumed per organization (shared/tenancy/credentials.ts): its one
 * managed policy allows the route actions only on keys that begin with the session's organization. The trust policy
 * names the account and asks the caller's role for TENANT_ACCESS_TAG (a list of every route's role would pass the
 * trust policy's size limit), the session for exactly one tag, the organization; each route's role names this role
 * in its own policy too, so both sides must agree.
 */
export class TenantDataRole extends Construct {
  readonly role: Role;

  constructor(scope: Construct, id: string, private readonly table: ITableV2, sharedPartitions: readonly SharedPartition[]) {
    super(scope, id);
    const policy = new ManagedPolicy(this, 'Policy', {
      description: "Route actions on the keys of the session's organization alone (dynamodb:LeadingKeys)",
      document: PolicyDocument.fromJson(tenantDataPolicy(table.tableArn, sharedPartitions)),
    });
    this.role = new Role(this, 'Role', {
      description: "Assumed by each keyed route's function for one organization at a time, tagged with it",
      assumedBy: new AccountRootPrincipal().withConditions({
        StringEquals: { [`aws:PrincipalTag/${TENANT_ACCESS_TAG.key}`]: TENANT_ACCESS_TAG.value },
        StringLike: { [`aws:RequestTag/${ORGANIZATION_TAG}`]: 'org_?*' },
        'ForAllValues:StringEquals': { 'aws:TagKeys': [ORGANIZATION_TAG] },
      }),
      managedPolicies: [policy],
    });
    // The session tag needs sts:TagSession beside sts:AssumeRole, with the same conditions.
    this.role.assumeRolePolicy!.addStatements(
      new PolicyStatement({
        actions: ['sts:TagSession'],
        principals: [new AccountRootPrincipal()],
        conditions: {
          StringEquals: { [`aws:PrincipalTag/${TENANT_ACCESS_TAG.key}`]: TENANT_ACCESS_TAG.value },
          StringLike: { [`aws:RequestTag/${ORGANIZATION_TAG}`]: 'org_?*' },
          'ForAllValues:StringEquals': { 'aws:TagKeys': [ORGANIZATION_TAG] },
        },
      }),
    );
  }

  /** Lets a keyed route's function assume the role, and tells it where the role and the table are. */
  admit(fn: LambdaFunction, role: IRole): void {
    Tags.of(role).add(TENANT_ACCESS_TAG.key, TENANT_ACCESS_TAG.value);
    fn.addToRolePolicy(new PolicyStatement({ actions: ['sts:AssumeRole', 'sts:TagSession'], resources: [this.role.roleArn] }));
    fn.addEnvironment(TENANT_ROLE_VARIABLES.role, this.role.roleArn);
    fn.addEnvironment(TENANT_ROLE_VARIABLES.table, this.table.tableArn);
  }
}
