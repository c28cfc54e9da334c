import { CfnParameter, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { CfnAlias, CfnReplicaKey } from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import { multiRegionSealingKeyAlias } from '#shared/sealing-key';
import { secretsKeyPolicy } from './key-policies';

/** A multi-region key's ARN, as KMS gives it: only such a key has replicas. */
const MULTI_REGION_KEY_ARN = '^arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-\\d+:\\d{12}:key/mrk-[0-9a-f]{32}$';

/**
 * The replica, in `-c secretsKeyReplicaRegion`, of the multi-region key sealing tenants' secrets: the same key
 * material, so functions deployed in this region open what the table's region sealed, with no call to that region.
 * Its own stack, as a stack deploys to one region. The primary's ARN is known only once SalesPipelineData is deployed
 * (its output SecretsKeyMultiRegionArn), and a stack with no region of its own cannot import across regions: it is
 * this stack's parameter, and a deploy without it fails before anything changes.
 */
export class SecretsKeyReplicaStack extends Stack {
  readonly replica: CfnReplicaKey;

  constructor(scope: Construct, id: string, { tableName, ...props }: StackProps & { tableName: string }) {
    super(scope, id, props);
    const primaryKeyArn = new CfnParameter(this, 'PrimaryKeyArn', {
      type: 'String',
      allowedPattern: MULTI_REGION_KEY_ARN,
      constraintDescription: 'must be a multi-region key ARN (…:key/mrk-…): the output SecretsKeyMultiRegionArn of SalesPipelineData',
      description: 'The output SecretsKeyMultiRegionArn of SalesPipelineData: the key this one replicates',
    });
    // A replica has a policy of its own, which KMS does not copy: the primary's, from the same builder.
    this.replica = new CfnReplicaKey(this, 'SecretsKeyReplica', {
      primaryKeyArn: primaryKeyArn.valueAsString,
      keyPolicy: secretsKeyPolicy(this, tableName),
      description: `Opens tenants' secrets of table ${tableName} in this region: a replica of SalesPipelineData's SecretsKeyMultiRegion`,
    });
    // Retained, as the primary: a sealed secret outlives any redeploy.
    this.replica.applyRemovalPolicy(RemovalPolicy.RETAIN);
    // The primary's alias, here: the functions of a deploy in this region name the key by it.
    new CfnAlias(this, 'Alias', { aliasName: multiRegionSealingKeyAlias(tableName), targetKeyId: this.replica.attrKeyId });
  }
}
