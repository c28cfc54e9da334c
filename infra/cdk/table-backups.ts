import { CfnOutput, Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault } from 'aws-cdk-lib/aws-backup';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

/** The names a restore needs (docs/operations.md, "Restoring the table"), fixed by the table's name. */
export const backupNames = (tableName: string) => ({ vault: `${tableName}-backups`, plan: `${tableName}-table` });

/** How long each kind of recovery point is kept: the restore drill and docs/operations.md state the same. */
export const BACKUP_RETENTION = { dailyDays: 7, monthlyDays: 365 } as const;

/**
 * AWS Backup of the table, beyond point-in-time recovery: PITR restores any second of the last 35 days, but it goes
 * with the table (a table deleted keeps one last backup, for 35 days) and reaches no further back. The vault's
 * recovery points are kept apart from the table, a daily one for a week and a monthly one for a year, and nobody,
 * the account's administrators included, can delete one before its time (a vault policy denies it). Each is a full
 * copy billed by the table's size, so the dailies stop at a week: PITR already covers every second of 35 days.
 */
export class TableBackups extends Construct {
  readonly vault: BackupVault;
  readonly plan: BackupPlan;

  constructor(scope: Construct, id: string, { table, tableName }: { table: ITableV2; tableName: string }) {
    super(scope, id);
    const names = backupNames(tableName);
    this.vault = new BackupVault(this, 'Vault', {
      backupVaultName: names.vault,
      // The recovery points outlive the stack, as the table does.
      removalPolicy: RemovalPolicy.RETAIN,
      blockRecoveryPointDeletion: true,
    });
    this.plan = new BackupPlan(this, 'Plan', {
      backupPlanName: names.plan,
      backupPlanRules: [
        new BackupPlanRule({
          ruleName: 'Daily',
          backupVault: this.vault,
          // 03:00 UTC: the quietest hour of the Australian and American working days.
          scheduleExpression: Schedule.cron({ hour: '3', minute: '0' }),
          deleteAfter: Duration.days(BACKUP_RETENTION.dailyDays),
        }),
        new BackupPlanRule({
          ruleName: 'Monthly',
          backupVault: this.vault,
          scheduleExpression: Schedule.cron({ day: '1', hour: '4', minute: '0' }),
          deleteAfter: Duration.days(BACKUP_RETENTION.monthlyDays),
        }),
      ],
    });
    // The role also restores (`aws backup start-restore-job --iam-role-arn`, docs/operations.md).
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
