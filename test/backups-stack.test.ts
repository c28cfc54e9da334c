import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnBackupVault } from 'aws-cdk-lib/aws-backup';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../infra/cdk/app';
import { DataStack } from '../infra/cdk/data-stack';
import { readOptions } from '../infra/cdk/options';
import { BACKUP_RETENTION, BackupCopyStack, VAULT_LOCK_GRACE_DAYS } from '../infra/cdk/table-backups';

// The table's backups as the options shape them: copies to another region or account, and the vaults' lock. Only the
// data stack is built (test/infra.test.ts holds the default plan, vault and restore names in the whole app).

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };
const base = { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none' };

/** The data stack's template under these options, as `cdk synth -c …` would make it. */
function dataTemplate(context: Record<string, string>) {
  const app = new App({ context: { ...base, ...context } });
  const options = readOptions(app.node);
  return Template.fromStack(new DataStack(app, 'Data', { tableName: options.tableName, backups: options.backups })).toJSON() as { Resources: Record<string, Resource>; Rules?: Record<string, any> };
}
const ofType = (template: { Resources: Record<string, Resource> }, type: string) => Object.values(template.Resources).filter((resource) => resource.Type === type);
const rulesOf = (template: { Resources: Record<string, Resource> }) => ofType(template, 'AWS::Backup::BackupPlan')[0]!.Properties.BackupPlan.BackupPlanRule as Array<Record<string, any>>;
/** The template's rules whose logical id starts with `prefix`. */
const rulesNamed = (template: { Rules?: Record<string, any> }, prefix: string) => Object.entries(template.Rules ?? {}).filter(([id]) => id.startsWith(prefix)).map(([, rule]) => rule);
const synthError = (context: Record<string, string>) => () => dataTemplate(context);

describe('the table’s backups by default', () => {
  const template = dataTemplate({});

  it('copy nowhere and lock no vault: one vault, in the stack’s own region and account', () => {
    expect(rulesOf(template).map((rule) => rule.CopyActions)).toEqual([undefined, undefined]);
    const vaults = ofType(template, 'AWS::Backup::BackupVault');
    expect(vaults).toHaveLength(1);
    expect(vaults[0]!.Properties.LockConfiguration).toBeUndefined();
    expect(rulesNamed(template, 'BackupsCopyElsewhere')).toEqual([]);
  });
});

describe('-c backupCopyRegion', () => {
  const template = dataTemplate({ backupCopyRegion: 'ap-southeast-4' });

  it('copies every recovery point to the vault of the same name in that region, kept as long as the original', () => {
    const vaultArn = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':backup:ap-southeast-4:', { Ref: 'AWS::AccountId' }, ':backup-vault:sales-pipeline-backups']] };
    expect(rulesOf(template).map((rule) => [rule.RuleName, rule.CopyActions])).toEqual([
      ['Daily', [{ DestinationBackupVaultArn: vaultArn, Lifecycle: { DeleteAfterDays: BACKUP_RETENTION.dailyDays } }]],
      ['Monthly', [{ DestinationBackupVaultArn: vaultArn, Lifecycle: { DeleteAfterDays: BACKUP_RETENTION.monthlyDays } }]],
    ]);
  });

  it('refuses, before CloudFormation changes anything, a deploy to the copy’s own region', () => {
    expect(rulesNamed(template, 'BackupsCopyElsewhere').map((rule) => rule.Assertions)).toEqual([
      [{ Assert: { 'Fn::Not': [{ 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'ap-southeast-4'] }] }, AssertDescription: expect.stringContaining('another region') }],
    ]);
  });

  it('makes that vault in its own stack, in that region, retained, its deletes denied, deployed before the data stack', () => {
    const { data, backupCopy } = buildApp(new App({ context: { ...base, backupCopyRegion: 'ap-southeast-4' } }));
    expect(backupCopy!.stackName).toBe('SalesPipelineBackupCopy');
    expect(backupCopy!.region).toBe('ap-southeast-4');
    expect(backupCopy!.terminationProtection).toBe(true);
    expect(data.dependencies).toContain(backupCopy);
    const copyApp = new App();
    const [vault, ...others] = ofType(Template.fromStack(new BackupCopyStack(copyApp, 'Copy', { env: { region: 'ap-southeast-4' }, tableName: 'sales-pipeline', backups: {} })).toJSON() as { Resources: Record<string, Resource> }, 'AWS::Backup::BackupVault');
    expect(others).toEqual([]);
    expect(vault!.DeletionPolicy).toBe('Retain');
    expect(vault!.Properties.BackupVaultName).toBe('sales-pipeline-backups');
    expect(vault!.Properties.AccessPolicy.Statement).toEqual([expect.objectContaining({ Effect: 'Deny', Principal: { AWS: '*' }, Action: expect.arrayContaining(['backup:DeleteRecoveryPoint']) })]);
  });

  it('adds no stack when not asked for', () => {
    expect(buildApp(new App({ context: base })).backupCopy).toBeUndefined();
  });

  it.each([['ap-southeast2'], ['Sydney'], ['ap-sotheast-2']])('refuses %s at synth, naming the option', (region) => {
    expect(synthError({ backupCopyRegion: region })).toThrow(/backupCopyRegion/);
  });
});

describe('-c backupCopyVaultArn', () => {
  const arn = 'arn:aws:backup:ap-southeast-2:210987654321:backup-vault:sales-pipeline-dr';

  it('copies every recovery point to that vault, kept as long as the original, beside a region copy when both are asked for', () => {
    expect(rulesOf(dataTemplate({ backupCopyVaultArn: arn })).map((rule) => rule.CopyActions)).toEqual([
      [{ DestinationBackupVaultArn: arn, Lifecycle: { DeleteAfterDays: BACKUP_RETENTION.dailyDays } }],
      [{ DestinationBackupVaultArn: arn, Lifecycle: { DeleteAfterDays: BACKUP_RETENTION.monthlyDays } }],
    ]);
    const both = rulesOf(dataTemplate({ backupCopyVaultArn: arn, backupCopyRegion: 'eu-west-1' }));
    expect(both.map((rule) => rule.CopyActions.map((copy: { DestinationBackupVaultArn: unknown }) => JSON.stringify(copy.DestinationBackupVaultArn)))).toEqual([
      [expect.stringContaining(':backup:eu-west-1:'), JSON.stringify(arn)],
      [expect.stringContaining(':backup:eu-west-1:'), JSON.stringify(arn)],
    ]);
  });

  it.each([
    ['210987654321'],
    ['arn:aws:backup:ap-southeast-2:2109876543:backup-vault:dr'],
    ['arn:aws:backup:ap-southeast-2:210987654321:backup-plan:dr'],
    ['arn:aws:s3:::sales-pipeline-dr'],
    ['arn:aws:backup:ap-southeast-2:210987654321:backup-vault:a'],
  ])('refuses %s at synth, naming the option and the form it takes', (value) => {
    expect(synthError({ backupCopyVaultArn: value })).toThrow(/backupCopyVaultArn must be a backup vault's ARN, arn:aws:backup:<region>:<12-digit account>:backup-vault:<name>/);
  });

  it('refuses -c backupCopyAccount, which names no vault, pointing to backupCopyVaultArn', () => {
    expect(synthError({ backupCopyAccount: '210987654321' })).toThrow(/backupCopyAccount is not an option.*-c backupCopyVaultArn=arn:aws:backup:<region>:<account>:backup-vault:<name>/);
  });
});

describe('-c backupVaultLock', () => {
  const lockOf = (value: string) => ofType(dataTemplate({ backupVaultLock: value }), 'AWS::Backup::BackupVault')[0]!.Properties.LockConfiguration;

  it('governance locks the vault to the plan’s own retentions, removable by whoever may remove a lock', () => {
    expect(lockOf('governance')).toEqual({ MinRetentionDays: BACKUP_RETENTION.dailyDays, MaxRetentionDays: BACKUP_RETENTION.monthlyDays });
  });

  it('compliance locks it for good after its grace days, and takes other retentions that leave the plan’s possible', () => {
    expect(VAULT_LOCK_GRACE_DAYS).toBe(3);
    expect(lockOf('compliance')).toEqual({ MinRetentionDays: 7, MaxRetentionDays: 365, ChangeableForDays: 3 });
    expect(lockOf('compliance:1:3650')).toEqual({ MinRetentionDays: 1, MaxRetentionDays: 3650, ChangeableForDays: 3 });
    expect(lockOf('governance:7:365')).toEqual({ MinRetentionDays: 7, MaxRetentionDays: 365 });
  });

  it('locks the region copy’s vault alike', () => {
    const { backupCopy } = buildApp(new App({ context: { ...base, backupCopyRegion: 'ap-southeast-4', backupVaultLock: 'compliance' } }));
    expect((backupCopy!.vault.node.defaultChild as CfnBackupVault).lockConfiguration).toEqual({ minRetentionDays: 7, maxRetentionDays: 365, changeableForDays: 3 });
    const copyApp = new App();
    const copy = Template.fromStack(new BackupCopyStack(copyApp, 'Copy', { env: { region: 'ap-southeast-4' }, tableName: 'sales-pipeline', backups: { vaultLock: { mode: 'compliance' } } }));
    copy.hasResourceProperties('AWS::Backup::BackupVault', { LockConfiguration: { MinRetentionDays: 7, MaxRetentionDays: 365, ChangeableForDays: 3 } });
  });

  it.each([
    ['compliant', /backupVaultLock must be governance or compliance/],
    ['compliance:7', /backupVaultLock must be governance or compliance/],
    ['compliance:0:365', /backupVaultLock's days must be 1 to 36500/],
    ['compliance:30:10', /backupVaultLock's days must be 1 to 36500, the least first/],
    ['governance:7:40000', /backupVaultLock's days must be 1 to 36500/],
    ['compliance:30:365', /least days \(30\) must be at most 7, the dailies' retention/],
    ['governance:7:90', /most days \(90\) must be at least 365, the monthlies' retention/],
  ])('refuses %s at synth, naming the option', (value, message) => {
    expect(synthError({ backupVaultLock: value })).toThrow(message);
  });
});
