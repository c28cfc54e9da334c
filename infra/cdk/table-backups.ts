import { ArnFormat, CfnOutput, CfnRule, Duration, Fn, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault, type BackupPlanCopyActionProps, type LockConfiguration } from 'aws-cdk-lib/aws-backup';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { RegionInfo } from 'aws-cdk-lib/region-info';
import { Construct } from 'constructs';
import type { BackupOptions } from './options';

/** The names a restore needs (docs/operations.md, "Restoring the table"), fixed by the table's name. */
export const backupNames = (tableName: string) => ({ vault: `${tableName}-backups`, plan: `${tableName}-table` });

/** How long each kind of recovery point is kept: the restore drill and docs/operations.md state the same. */
export const BACKUP_RETENTION = { dailyDays: 7, monthlyDays: 365 } as const;

/** Days a compliance-mode Vault Lock can still be removed once set (AWS Backup's least); after them no one can. */
export const VAULT_LOCK_GRACE_DAYS = 3;

/**
 * The Vault Lock of `-c backupVaultLock`, on every vault the stacks make. Its least and most days default to the plan's
 * own retentions, and must leave both possible: a vault whose lock refuses a recovery point's retention fails its job.
 */
function lockOf({ vaultLock }: BackupOptions): LockConfiguration | undefined {
  if (!vaultLock) return undefined;
  const { mode, minDays = BACKUP_RETENTION.dailyDays, maxDays = BACKUP_RETENTION.monthlyDays } = vaultLock;
  if (minDays > BACKUP_RETENTION.dailyDays) {
    throw new Error(`Context backupVaultLock's least days (${minDays}) must be at most ${BACKUP_RETENTION.dailyDays}, the dailies' retention, or every daily backup fails`);
  }
  if (maxDays < BACKUP_RETENTION.monthlyDays) {
    throw new Error(`Context backupVaultLock's most days (${maxDays}) must be at least ${BACKUP_RETENTION.monthlyDays}, the monthlies' retention, or every monthly backup fails`);
  }
  return {
    minRetention: Duration.days(minDays),
    maxRetention: Duration.days(maxDays),
    // Compliance mode is governance mode with a date after which the lock cannot be changed or removed.
    ...(mode === 'compliance' ? { changeableFor: Duration.days(VAULT_LOCK_GRACE_DAYS) } : {}),
  };
}

/**
 * A template rule refusing, before CloudFormation changes anything, a deploy to the region an option names as the
 * other one (a copy's, a replica's): the stacks name no region of their own, so only CloudFormation knows it.
 */
export function refuseDeployIn(scope: Construct, id: string, region: string, option: string): CfnRule {
  return new CfnRule(scope, id, {
    assertions: [{ assert: Fn.conditionNot(Fn.conditionEquals(Stack.of(scope).region, region)), assertDescription: `${option} (${region}) must be another region than the one the table is deployed in` }],
  });
}

/** A vault of the table's backups: kept when its stack goes, its recovery points' deletion denied by its policy, locked if asked. */
function makeVault(scope: Construct, name: string, backups: BackupOptions): BackupVault {
  return new BackupVault(scope, 'Vault', {
    backupVaultName: name,
    // The recovery points outlive the stack, as the table does.
    removalPolicy: RemovalPolicy.RETAIN,
    // A policy denying everyone DeleteRecoveryPoint: it stops a script or a mistake, not an administrator, who may
    // delete the policy first. Only a compliance-mode lock stops everyone.
    blockRecoveryPointDeletion: true,
    ...(backups.vaultLock ? { lockConfiguration: lockOf(backups) } : {}),
  });
}

/**
 * AWS Backup of the table, beyond point-in-time recovery: PITR restores any second of the last 35 days, but it goes
 * with the table (a table deleted keeps one last backup, for 35 days) and reaches no further back. The vault's
 * recovery points are kept apart from the table, a daily one for a week and a monthly one for a year. A vault policy
 * denies deleting one before its time, which an administrator can lift; with `-c backupVaultLock=compliance` no one
 * can, once its grace days are over. Each is a full copy billed by the table's size, so the dailies stop at a week:
 * PITR already covers every second of 35 days. With `-c backupCopyRegion` or `-c backupCopyVaultArn` each recovery
 * point is also copied, kept as long, to a vault in another region (SalesPipelineBackupCopy's) or another account.
 */
export class TableBackups extends Construct {
  readonly vault: BackupVault;
  readonly plan: BackupPlan;

  constructor(scope: Construct, id: string, { table, tableName, backups = {} }: { table: ITableV2; tableName: string; backups?: BackupOptions }) {
    super(scope, id);
    const names = backupNames(tableName);
    const stack = Stack.of(this);
    this.vault = makeVault(this, names.vault, backups);
    const copiesTo: string[] = [];
    if (backups.copyRegion) {
      if (!RegionInfo.regions.some((region) => region.name === backups.copyRegion)) {
        throw new Error(`Context backupCopyRegion "${backups.copyRegion}" is no AWS region this CDK knows`);
      }
      if (stack.region === backups.copyRegion) throw new Error(`Context backupCopyRegion (${backups.copyRegion}) must be another region than the table's`);
      copiesTo.push(stack.formatArn({ service: 'backup', region: backups.copyRegion, resource: 'backup-vault', resourceName: names.vault, arnFormat: ArnFormat.COLON_RESOURCE_NAME }));
      // The stacks name no region (the copy's own excepted), so a copy to the region they are deployed in is refused
      // when CloudFormation knows it, before anything changes: it would be no copy outside the region.
      refuseDeployIn(this, 'CopyElsewhere', backups.copyRegion, 'backupCopyRegion');
    }
    if (backups.copyVaultArn) copiesTo.push(backups.copyVaultArn);
    const destinations = copiesTo.map((arn, index) => BackupVault.fromBackupVaultArn(this, `CopyVault${index}`, arn));
    // Each copy is kept as long as the recovery point it copies.
    const copies = (days: number): BackupPlanCopyActionProps[] => destinations.map((destinationBackupVault) => ({ destinationBackupVault, deleteAfter: Duration.days(days) }));
    this.plan = new BackupPlan(this, 'Plan', {
      backupPlanName: names.plan,
      backupPlanRules: [
        new BackupPlanRule({
          ruleName: 'Daily',
          backupVault: this.vault,
          // 03:00 UTC: the quietest hour of the Australian and American working days.
          scheduleExpression: Schedule.cron({ hour: '3', minute: '0' }),
          deleteAfter: Duration.days(BACKUP_RETENTION.dailyDays),
          ...(copiesTo.length ? { copyActions: copies(BACKUP_RETENTION.dailyDays) } : {}),
        }),
        new BackupPlanRule({
          ruleName: 'Monthly',
          backupVault: this.vault,
          scheduleExpression: Schedule.cron({ day: '1', hour: '4', minute: '0' }),
          deleteAfter: Duration.days(BACKUP_RETENTION.monthlyDays),
          ...(copiesTo.length ? { copyActions: copies(BACKUP_RETENTION.monthlyDays) } : {}),
        }),
      ],
    });
    // The role also restores (`aws backup start-restore-job --iam-role-arn`, docs/operations.md), and copies: AWS's
    // backup policy lets it copy into any vault, the destination's own policy deciding.
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('backup.amazonaws.com') });
    for (const policy of ['AWSBackupServiceRolePolicyForBackup', 'AWSBackupServiceRolePolicyForRestores']) {
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/${policy}]`,
        reason: "AWS's managed policy for AWS Backup to back up and restore the resources a backup plan selects, nothing else.",
      });
    }
    this.plan.addSelection('Table', { resources: [BackupResource.fromArn(table.tableArn)], role, allowRestores: true });
    new CfnOutput(this, 'RoleArn', { value: role.roleArn, description: 'The role AWS Backup backs the table up and restores it with' });
  }
}

/**
 * The vault in `-c backupCopyRegion` that the table's recovery points are copied to, named as the table's own vault
 * and guarded alike. Its own stack, as a stack deploys to one region; the data stack depends on it, so the vault exists
 * before the plan copies into it.
 */
export class BackupCopyStack extends Stack {
  readonly vault: BackupVault;

  constructor(scope: Construct, id: string, { tableName, backups, ...props }: StackProps & { tableName: string; backups: BackupOptions }) {
    super(scope, id, props);
    this.vault = makeVault(this, backupNames(tableName).vault, backups);
  }
}
