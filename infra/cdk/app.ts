import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { routes } from '../../shared/routes/index';
import { ApiStack } from './api-stack';
import { DataStack } from './data-stack';

/** Builds the two stacks. Synthesizes offline: no AWS account or credentials needed. */
export function buildApp(app = new App()): { app: App; data: DataStack; api: ApiStack } {
  const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };
  const data = new DataStack(app, 'SalesPipelineData', { env });
  const api = new ApiStack(app, 'SalesPipelineApi', { env, table: data.table, routes });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, data, api };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  buildApp().app.synth();
}
