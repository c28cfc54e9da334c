import { Duration, RemovalPolicy, type Stack, Token, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import type { ScheduledSends } from '#shared/scheduled-sends';
import type { ServiceFunction } from '../service-function';
import { queueDefaults } from './channels';

const SCHEDULER = 'scheduler.amazonaws.com';

/** What a queue fed by one-time schedules has besides: their group, the role they send as, and their dead letters. */
export interface QueueSchedules {
  groupName: string;
  role: Role;
  deadLetters: Queue;
  /** The alarm on those dead letters: its construct id and what a message there means. */
  deadLettersAlarm: { id: string; what: string };
  /** What the queue's consumer reads to make a schedule. */
  environment: Record<string, string>;
}

/**
 * The schedule group, the dead letters of what a schedule could not send, and the role Scheduler assumes (from this
 * account and for this group's schedules only) to send a schedule's message: to the queue and those dead letters, and
 * nothing else. The group is retained: deleting it, or replacing it on a rename, would delete every pending schedule
 * in it, each a run's next step.
 */
export function makeQueueSchedules(stack: Stack, id: string, queue: Queue, schedules: ScheduledSends, tableName: string): QueueSchedules {
  const groupName = schedules.group(tableName);
  const group = new CfnScheduleGroup(stack, `${id}ScheduleGroup`, { name: groupName });
  group.applyRemovalPolicy(RemovalPolicy.RETAIN);
  const dead = schedules.deadLetters;
  const deadLetters = new Queue(stack, dead.id, { ...queueDefaults, queueName: dead.queueName(tableName), retentionPeriod: Duration.days(dead.retentionDays) });
  Validations.of(deadLetters).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'The dead letters of one-time schedules: each schedule names this queue in its DeadLetterConfig, made at run time.' });
  const role = new Role(stack, `${id}SchedulerRole`, {
    // Scheduler names the schedule's group as the source (not the schedule itself), so the group's ARN is the scope.
    assumedBy: new ServicePrincipal(SCHEDULER, { conditions: { StringEquals: { 'aws:SourceAccount': stack.account, 'aws:SourceArn': group.attrArn } } }),
    description: `EventBridge Scheduler sends the one-time schedules of ${groupName} to their queue as this role`,
  });
  role.addToPolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn, deadLetters.queueArn] }));
  const { environment: names } = schedules;
  const environment = { [names.group]: groupName, [names.roleArn]: role.roleArn, [names.deadLettersArn]: deadLetters.queueArn };
  return { groupName, role, deadLetters, deadLettersAlarm: dead.alarm, environment };
}

/**
 * The queue's consumer may create and delete schedules in the group alone, and pass the role to Scheduler alone: it
 * cannot touch another group's schedules, nor hand the role to another service.
 */
export function grantScheduling(fn: ServiceFunction, { groupName, role }: QueueSchedules): void {
  const stack = fn.function.stack;
  const schedulesOf = (partition: string, region: string, account: string) => `arn:${partition}:scheduler:${region}:${account}:schedule/${groupName}/*`;
  fn.function.addToRolePolicy(new PolicyStatement({ actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'], resources: [schedulesOf(stack.partition, stack.region, stack.account)] }));
  fn.function.addToRolePolicy(new PolicyStatement({ actions: ['iam:PassRole'], resources: [role.roleArn], conditions: { StringEquals: { 'iam:PassedToService': SCHEDULER } } }));
  Validations.of(fn).acknowledge({
    id: `AwsSolutions-IAM5[Resource::${schedulesOf('<AWS::Partition>', Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region, '<AWS::AccountId>')}]`,
    reason: 'Schedules are named by the run and step they wake, made and deleted as runs go; the grant is to the one group the stack made for them.',
  });
}
