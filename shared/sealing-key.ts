import type { Capability, CapabilityContext, TableLocation } from './routes/route';
import { serviceRoleArnPattern } from './iam';

/** The environment variables that name the key sealing tenants' secrets: the KMS key's alias deployed, a local AES key otherwise. */
export const SECRETS_KEY_VARIABLES = { deployed: 'SECRETS_KEY_ALIAS_ARN', local: 'SECRETS_LOCAL_KEY' } as const;

/**
 * The customer-managed KMS key that seals tenants' secrets in the table (shared/envelope-encryption.ts), by its alias:
 * the data stack makes the key and the alias, and the functions that seal or open secrets name it the same way, with
 * no cross-stack reference.
 */
export const sealingKeyAlias = (tableName: string) => `alias/${tableName}-secrets`;

/**
 * The multi-region key beside it (`-c secretsKeyReplicaRegion`), and its replica's in that region: with the option,
 * new secrets are sealed by it, and a function deployed in the replica's region opens them there.
 */
export const multiRegionSealingKeyAlias = (tableName: string) => `alias/${tableName}-secrets-multi-region`;

/** The option that adds the multi-region key: its replica's region. */
export const REPLICA_REGION_SETTING = 'secretsKeyReplicaRegion';

/** The alias new secrets are sealed by: the multi-region key's once it is asked for, the first key's otherwise. */
const aliasArn = (where: CapabilityContext) =>
  `arn:${where.partition}:kms:${where.region}:${where.account}:${(where.setting(REPLICA_REGION_SETTING) ? multiRegionSealingKeyAlias : sealingKeyAlias)(where.tableName)}`;

/**
 * Any key of the account, on condition one of the two aliases names it: IAM cannot name a key by its alias otherwise.
 * Both whatever the option: what one key sealed is opened after the other seals, and a deploy in the replica's region
 * (made without the option, its own first key beside the replica) opens with the replica.
 */
const theAliasedKey = (where: TableLocation) => ({
  resources: [`arn:${where.partition}:kms:${where.region}:${where.account}:key/*`],
  conditions: { 'ForAnyValue:StringEquals': { 'kms:ResourceAliases': [sealingKeyAlias(where.tableName), multiRegionSealingKeyAlias(where.tableName)] } },
});

/** The encryption context key naming a sealed secret's organization (shared/envelope-encryption.ts binds every secret to it). */
export const ORGANIZATION_CONTEXT_KEY = 'kms:EncryptionContext:organizationId';

/** The encryption context key naming the item a sealed secret belongs to. */
export const ITEM_CONTEXT_KEY = 'kms:EncryptionContext:itemId';

const WILDCARD_REASON = 'The key is named by its alias (the data stack makes it, with no cross-stack reference): the statement holds only for the key that alias names (kms:ResourceAliases), or by the multi-region key beside it.';

/**
 * The key's alias, deployed; for `sam local` (`-c samLocal=true`), the local key's variable, which sam local's
 * --env-vars fill with npm start's (infra/local/sam-env.ts), so its functions seal and open as npm start's do.
 */
const keyEnvironment = (where: CapabilityContext): Record<string, string> =>
  where.setting('samLocal') === 'true' ? { [SECRETS_KEY_VARIABLES.local]: '' } : { [SECRETS_KEY_VARIABLES.deployed]: aliasArn(where) };

/**
 * The key's two uses, each by the roles tagged for it (the tag's value the table's name): the key's own policy allows
 * the action to those roles alone (infra/cdk/key-policies.ts), and the functions' IAM policies to the key alone.
 */
export const SECRETS_KEY_USES = [
  { name: 'sealsSecrets', sid: 'SealByTheFunctionsThatSeal', action: 'kms:GenerateDataKey', roleTag: 'SalesPipelineSealsSecrets' },
  { name: 'opensSecrets', sid: 'OpenByTheFunctionsThatOpen', action: 'kms:Decrypt', roleTag: 'SalesPipelineOpensSecrets' },
] as const;

/**
 * The key policy's statements of its uses: each action to the account's principals whose role carries the use's tag
 * with the table's name and was made at the service's role path (the roles are made after the key, in other stacks, so
 * the policy names them by their tag and their path, not their ARN). Written once, for the stack's key policy
 * (infra/cdk/key-policies.ts) and the local strict mode's evaluation.
 */
export const keyUseStatements = ({ partition, account, tableName }: TableLocation) =>
  SECRETS_KEY_USES.map(({ sid, action, roleTag }) => ({
    Sid: sid,
    Effect: 'Allow' as const,
    Principal: { AWS: `arn:${partition}:iam::${account}:root` },
    Action: action,
    Resource: '*',
    Condition: { StringEquals: { 'aws:PrincipalAccount': account, [`aws:PrincipalTag/${roleTag}`]: tableName }, ArnLike: { 'aws:PrincipalArn': serviceRoleArnPattern(partition, account) } },
  }));

/** A capability of one use of the aliased key, with the key's alias (or sam local's key) in the environment and its tag on the role. */
function aliasedKeyCapability(name: (typeof SECRETS_KEY_USES)[number]['name']): Capability {
  const { action, roleTag, sid } = SECRETS_KEY_USES.find((use) => use.name === name)!;
  return {
    name,
    reachesOutside: false,
    environment: keyEnvironment,
    statements: (where) => [{ actions: [action], ...theAliasedKey(where) }],
    wildcardReason: WILDCARD_REASON,
    roleTags: (where) => ({ [roleTag]: where.tableName }),
    // A keyed route's secrets are its organization's: the session's call to the key holds only where the secret's
    // encryption context names that organization, so a session of one never opens another's; a session for one
    // item's secrets (an inbound post's endpoint) opens that item's alone.
    sessionStatements: (where, organization, itemId) => {
      const { resources, conditions } = theAliasedKey(where);
      const context = { [ORGANIZATION_CONTEXT_KEY]: organization, ...(itemId === undefined ? {} : { [ITEM_CONTEXT_KEY]: itemId }) };
      return [{ Sid: `${sid}ForTheOrganization`, Effect: 'Allow', Action: [action], Resource: resources, Condition: { ...conditions, StringEquals: context } }];
    },
  };
}

/** Sealing a new secret: a data key from the key (GenerateDataKey), and the key's alias to ask it by. */
export const sealsSecrets = aliasedKeyCapability('sealsSecrets');

/** Opening a stored secret to sign or verify with it: the data key decrypted by the key (Decrypt). */
export const opensSecrets = aliasedKeyCapability('opensSecrets');
