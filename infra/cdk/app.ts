import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { routes } from '../../functions/resources';
import { AnalyticsStack } from './analytics-stack';
import { ApiStack } from './api-stack';
import { DataStack } from './data-stack';
import { EventsStack } from './events-stack';
import { readOptions } from './options';

/** Builds the three stacks, and the analytics one if asked for. Synthesizes offline: no AWS account or credentials needed. */
export function buildApp(app = new App()): { app: App; data: DataStack; api: ApiStack; events: EventsStack; analytics?: AnalyticsStack } {
  const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };
  const options = readOptions(app.node);
  // The stateful stacks cannot be deleted by a stray `cdk destroy`: the table, its backups, the queues' messages.
  const data = new DataStack(app, 'SalesPipelineData', { env, tableName: options.tableName, terminationProtection: true });
  const api = new ApiStack(app, 'SalesPipelineApi', { env, routes, options });
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
  return { app, data, api, events, ...(analytics ? { analytics } : {}) };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  buildApp().app.synth();
}
