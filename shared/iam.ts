/**
 * An IAM policy document as JSON, as the stacks write it and the local strict mode evaluates it: written once for the
 * tenant sessions' policies (./tenancy/policies.ts) and the capabilities' statements (./routes/route.ts).
 */
export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action: string[];
  Resource: string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

export interface PolicyDocument {
  Version: '2012-10-17';
  Statement: PolicyStatement[];
}

/**
 * The path of every role the stacks make for the service's functions (and the tenant-data role): a resource policy
 * that admits them by tag also asks for it in `aws:PrincipalArn`, so a role tagged by hand elsewhere in the account
 * is not admitted unless it was also made at this path.
 */
export const SERVICE_ROLE_PATH = '/sales-pipeline/';

/** The ARN pattern of the roles at SERVICE_ROLE_PATH in an account. */
export const serviceRoleArnPattern = (partition: string, account: string) => `arn:${partition}:iam::${account}:role${SERVICE_ROLE_PATH}*`;
