import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../infra/cdk/app';
import { SCHEDULED_JOBS } from '../functions/resources';

// Asset bundling is left to `npm run synth`; here only the templates matter.
const { events } = buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none', tableName: 'pipeline' } }));
const template = Template.fromStack(events);
type Resource = { Properties: Record<string, any> };

describe('scheduled jobs', () => {
  it.each(SCHEDULED_JOBS.map((job) => [job.name, job] as const))('%s: its function runs on an EventBridge schedule at its interval, granted only its actions and indexes, alarmed when it keeps failing', (name, job) => {
    const functions = template.findResources('AWS::Lambda::Function') as Record<string, Resource>;
    const [functionId] = Object.entries(functions).find(([id]) => id.startsWith(`${name}Function`))!;
    const rules = Object.values(template.findResources('AWS::Events::Rule') as Record<string, Resource>).filter((rule) => JSON.stringify(rule.Properties.Targets).includes(functionId));
    expect(rules.map((rule) => rule.Properties.ScheduleExpression)).toEqual([`rate(${job.everyMinutes} minute${job.everyMinutes === 1 ? '' : 's'})`]);

    const policy = Object.entries(template.findResources('AWS::IAM::Policy') as Record<string, Resource>).find(([id]) => id.startsWith(`${name}Role`))![1];
    const statements = policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[];
    const dynamodb = statements.filter((statement) => [statement.Action].flat().some((action) => action.startsWith('dynamodb:')));
    expect(dynamodb.flatMap((statement) => [statement.Action].flat()).sort()).toEqual(job.dynamodb.map((action) => `dynamodb:${action}`).sort());
    for (const index of job.indexes) expect(JSON.stringify(dynamodb.map((statement) => statement.Resource))).toContain(`/index/${index}`);
    // On the keys it names, every organization's unless it names others.
    for (const statement of dynamodb) expect((statement as { Condition?: unknown }).Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': job.keys ?? ['ORG#*'] } });
    // A job that signs as a tenant (the isolation canary) may only assume the tenant-data role: no table grant of its own.
    const assumes = statements.filter((statement) => [statement.Action].flat().some((action) => action.startsWith('sts:')));
    expect(assumes.map((statement) => statement.Action)).toEqual(job.signsAsTenant ? [['sts:AssumeRole', 'sts:TagSession']] : []);

    const alarms = Object.entries(template.findResources('AWS::CloudWatch::Alarm') as Record<string, Resource>).filter(([id]) => id.startsWith(`${name}Failing`));
    expect(alarms.map(([, alarm]) => [alarm.Properties.MetricName, alarm.Properties.EvaluationPeriods])).toEqual([['Errors', 3]]);
  });
});
