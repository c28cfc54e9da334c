import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { routes } from '../../functions/resources';
import { AnalyticsStack } from './analytics-stack';
import { ApiStack } from './api-stack';
import { DataStack } from './data-stack';
import { EventsStack } from './events-stack';
import { readOptions } from './options';
import { SecretsKeyReplicaStack } from './secrets-key-replica';
import { BackupCopyStack } from './table-backups';

/**
 * Builds the three stacks, and the analytics and backup copy ones if asked for. Synthesizes offline: no AWS account or
 * credentials needed.
 */
export function buildApp(app = new App()): { app: App; data: DataStack; api: ApiStack; events: EventsStack; analytics?: AnalyticsStack; backupCopy?: BackupCopyStack; secretsKeyReplica?: SecretsKeyReplicaStack } {
  // No account or region: the templates name AWS::Region and AWS::AccountId, and deploy as they are to wherever they
  // are deployed. `cdk synth` sets CDK_DEFAULT_REGION to us-east-1 when it finds no region, which stacks built with it
  // would bake into every function's layer ARN and the table's replica.
  const env = {};
  const options = readOptions(app.node);
  // The copy's vault is in its own region; the plan copies into it once it exists.
  const backupCopy = options.backups.copyRegion
    ? new BackupCopyStack(app, 'SalesPipelineBackupCopy', { env: { region: options.backups.copyRegion }, tableName: options.tableName, backups: options.backups, terminationProtection: true })
    : undefined;
  // The stateful stacks cannot be deleted by a stray `cdk destroy`: the table, its backups, the queues' messages.
  const data = new DataStack(app, 'SalesPipelineData', {
    env,
    tableName: options.tableName,
    backups: options.backups,
    ...(options.secretsKeyReplicaRegion ? { secretsKeyReplicaRegion: options.secretsKeyReplicaRegion } : {}),
    terminationProtection: true,
  });
  if (backupCopy) data.addStackDependency(backupCopy);
  // The replica of the data stack's multi-region key, which must exist first.
  const secretsKeyReplica = options.secretsKeyReplicaRegion
    ? new SecretsKeyReplicaStack(app, 'SalesPipelineSecretsKeyReplica', { env: { region: options.secretsKeyReplicaRegion }, tableName: options.tableName, terminationProtection: true })
    : undefined;
  secretsKeyReplica?.addStackDependency(data);
  // The console's files and their distribution, not for sam local, which runs no distribution.
  const api = new ApiStack(app, 'SalesPipelineApi', { env, routes, options, console: !options.samLocal });
  // The table must exist before the functions that use it are deployed.
  api.addStackDependency(data);
  // The table and its stream's SSM parameter must exist first; the events stack reads them by name.
  const events = new EventsStack(app, 'SalesPipelineEvents', { env, options, terminationProtection: true });
  events.addStackDependency(data);
  // Routes send to the events stack's queues by name (enrolments, cancellations, redeliveries): on a first deploy
  // they would answer 500 until those queues exist.
  api.addStackDependency(events);
  // Opt-in: it exports the table, which must exist with point-in-time recovery on (the data stack's) first.
  const analytics = options.analytics ? new AnalyticsStack(app, 'SalesPipelineAnalytics', { env, options }) : undefined;
  analytics?.addStackDependency(data);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, data, api, events, ...(analytics ? { analytics } : {}), ...(backupCopy ? { backupCopy } : {}), ...(secretsKeyReplica ? { secretsKeyReplica } : {}) };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  buildApp().app.synth();
}
