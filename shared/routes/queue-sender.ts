import type { Capability } from './route';

/**
 * Sending to one of the events stack's queues by its name (`to.queueName` of the table's), reaching outside the API when
 * its worker does (`reachesOutside`: a text to a person; an MCP tool's open-world hint): the queue's URL in
 * `to.environment.queueUrl`, and SendMessage to it alone (SSE-SQS, so no key to grant). The queue is made by the events stack,
 * which the API stack deploys after, so the name is known with no cross-stack reference.
 */
export function queueSender({ name, to, reachesOutside }: { name: string; to: { queueName: (tableName: string) => string; environment: { queueUrl: string } }; reachesOutside: boolean }): Capability {
  const { queueName, environment: { queueUrl: urlVariable } } = to;
  return {
    name,
    reachesOutside,
    environment: ({ tableName, region, account, urlSuffix }) => ({ [urlVariable]: `https://sqs.${region}.${urlSuffix}/${account}/${queueName(tableName)}` }),
    statements: ({ partition, region, account, tableName }) => [{ actions: ['sqs:SendMessage'], resources: [`arn:${partition}:sqs:${region}:${account}:${queueName(tableName)}`] }],
  };
}
