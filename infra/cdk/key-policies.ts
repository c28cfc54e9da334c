import { AccountRootPrincipal, Effect, PolicyDocument, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Stack } from 'aws-cdk-lib';
import { keyUseStatements } from '#shared/sealing-key';

/**
 * What administering a key takes, and nothing that uses it: no kms:Decrypt, Encrypt, GenerateDataKey or ReEncrypt, and
 * no kms:CreateGrant (a grant would be a way to use it without its policy saying so). Changing the policy stays
 * possible (kms:PutKeyPolicy), or the key could be managed by no one; that change is CloudTrail's to record.
 */
export const KEY_ADMINISTRATION_ACTIONS = [
  'kms:CreateAlias', 'kms:Describe*', 'kms:Enable*', 'kms:List*', 'kms:Put*', 'kms:Update*', 'kms:Revoke*', 'kms:Disable*', 'kms:Get*', 'kms:Delete*',
  'kms:TagResource', 'kms:UntagResource', 'kms:ScheduleKeyDeletion', 'kms:CancelKeyDeletion', 'kms:RotateKeyOnDemand', 'kms:ReplicateKey',
] as const;

/** The key's administration by the account (IAM decides who): every action but using it. */
export const keyAdministration = (stack: Stack) =>
  new PolicyStatement({
    sid: 'Administration',
    effect: Effect.ALLOW,
    principals: [new AccountRootPrincipal()],
    actions: [...KEY_ADMINISTRATION_ACTIONS],
    resources: ['*'],
    conditions: { StringEquals: { 'aws:PrincipalAccount': stack.account } },
  });

/**
 * The policy of the key sealing tenants' secrets: the account administers it, and only the roles tagged for a use
 * (the functions whose routes or workers seal or open a secret, shared/sealing-key.ts) make that one call. The roles
 * are made after the key, in other stacks, so the policy names them by their tag and their path (SERVICE_ROLE_PATH),
 * not their ARN; an administrator who makes a role at that path and tags it changes IAM, as changing this policy
 * would, and CloudTrail records both.
 */
export function secretsKeyPolicy(stack: Stack, tableName: string): PolicyDocument {
  return new PolicyDocument({
    statements: [
      keyAdministration(stack),
      ...keyUseStatements({ partition: stack.partition, account: stack.account, region: stack.region, tableName }).map((statement) => PolicyStatement.fromJson(statement)),
    ],
  });
}
