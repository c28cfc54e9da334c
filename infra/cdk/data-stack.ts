import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, Billing, ContributorInsightsMode, StreamViewType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { TABLE_INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '#shared/table';
import { multiRegionSealingKeyAlias, sealingKeyAlias } from '#shared/sealing-key';
import type { BackupOptions } from './options';
import { refuseDeployIn, TableBackups } from './table-backups';
import { secretsKeyPolicy } from './key-policies';

/**
 * The SSM parameter holding the table's stream ARN, which the events stack reads when it deploys. Not a
 * CloudFormation export: an export cannot change while another stack imports it, so a new stream (the stream turned
 * off and on, the table replaced from a backup) could not be deployed.
 */
export const streamArnParameterName = (tableName: string) => `/${tableName}/table/stream-arn`;

/** The stateful part: the single table. It outlives every redeploy of the API. */
export class DataStack extends Stack {
  readonly table: TableV2;
  /** Seals tenants' secrets in the table's items (shared/envelope-encryption.ts): kept with the table, as they are. */
  readonly secretsKey: Key;
  /** With `-c secretsKeyReplicaRegion`, the multi-region key that seals new secrets, replicated there. */
  readonly multiRegionSecretsKey?: Key;

  constructor(
    scope: Construct,
    id: string,
    { tableName, backups = {}, secretsKeyReplicaRegion, ...props }: StackProps & { tableName: string; backups?: BackupOptions; secretsKeyReplicaRegion?: string },
  ) {
    super(scope, id, props);
    this.table = new TableV2(this, 'Table', {
      // Named, so the API stack finds it without a cross-stack import.
      tableName,
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      // The keys behind throttled requests, for the DynamoDbThrottles page (docs/operations.md): billed per throttled
      // request only, so nothing while the table keeps up.
      contributorInsightsSpecification: { enabled: true, mode: ContributorInsightsMode.THROTTLED_KEYS },
      timeToLiveAttribute: TTL_ATTRIBUTE,
      // Events are derived from committed changes (SalesPipelineEvents reads this stream).
      dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES,
      removalPolicy: RemovalPolicy.RETAIN,
      globalSecondaryIndexes: TABLE_INDEXES.map((index) => ({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      })),
    });
    new TableBackups(this, 'Backups', { table: this.table, tableName, backups });
    // Its own policy decides who uses it: the account administers it, and only the roles of the functions whose routes
    // or workers seal or open a secret (shared/sealing-key.ts) use it, each for its one call. Retained: a sealed secret
    // outlives any redeploy.
    this.secretsKey = new Key(this, 'SecretsKey', {
      alias: sealingKeyAlias(tableName),
      description: `Seals tenants' webhook signing secrets and inbound endpoints' secrets in table ${tableName}`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
      policy: secretsKeyPolicy(this, tableName),
    });
    // Beside the first key, never in its place: a key cannot become multi-region, and a new one under the first's
    // logical id would strand every secret it sealed. The functions seal with this one and open with either
    // (docs/decisions/security.md).
    if (secretsKeyReplicaRegion) {
      // There the replica holds the alias: a deploy of this stack in that region (a restore's) is made without the option.
      refuseDeployIn(this, 'SecretsKeyReplicaElsewhere', secretsKeyReplicaRegion, 'secretsKeyReplicaRegion');
      this.multiRegionSecretsKey = new Key(this, 'SecretsKeyMultiRegion', {
        alias: multiRegionSealingKeyAlias(tableName),
        description: `Seals tenants' secrets in table ${tableName}, opened in ${secretsKeyReplicaRegion} too by its replica`,
        multiRegion: true,
        enableKeyRotation: true,
        removalPolicy: RemovalPolicy.RETAIN,
        policy: secretsKeyPolicy(this, tableName),
      });
      new CfnOutput(this, 'SecretsKeyMultiRegionArn', {
        value: this.multiRegionSecretsKey.keyArn,
        description: `The PrimaryKeyArn parameter of the stack SalesPipelineSecretsKeyReplica, in ${secretsKeyReplicaRegion}`,
      });
    }
    new StringParameter(this, 'StreamArn', {
      parameterName: streamArnParameterName(tableName),
      stringValue: this.table.tableStreamArn!,
      description: `The stream of table ${tableName}, read by the SalesPipelineEvents stack`,
    });
  }
}
