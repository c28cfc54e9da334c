import { DynamoDBClient, ExportTableToPointInTimeCommand, type ExportTableToPointInTimeCommandInput } from '@aws-sdk/client-dynamodb';
import { logger } from '#shared/observability';

/** Where a day's snapshot goes: the table, and the bucket of the opt-in analytics stack (infra/cdk/analytics-stack.ts). */
export interface ExportTarget {
  tableArn: string;
  bucket: string;
  /** The bucket's KMS key, which the export's objects are encrypted with (SSE-KMS). */
  kmsKeyArn?: string;
}

/** The part of the SDK client the export calls: the deployed function's own client, or a test's. */
export type ExportClient = Pick<DynamoDBClient, 'send'>;

/** The prefix of a day's export below the bucket; Glue's partition projection reads `dt` from it. */
export const exportPrefix = (day: string) => `exports/dt=${day}`;

/**
 * The request for the snapshot taken at `time` (the schedule's event time): a full export in DynamoDB JSON below the
 * day's prefix. The day is also the client token, so a retried invocation of the same day (within DynamoDB's 8-hour
 * token window) starts no second export.
 */
export function exportRequest(time: Date, { tableArn, bucket, kmsKeyArn }: ExportTarget): ExportTableToPointInTimeCommandInput {
  const day = time.toISOString().slice(0, 10);
  return {
    TableArn: tableArn,
    ExportTime: time,
    S3Bucket: bucket,
    S3Prefix: exportPrefix(day),
    ExportFormat: 'DYNAMODB_JSON',
    ExportType: 'FULL_EXPORT',
    ClientToken: day,
    ...(kmsKeyArn ? { S3SseAlgorithm: 'KMS' as const, S3SseKmsKeyId: kmsKeyArn } : {}),
  };
}

/** The handler for a target and client; the event's `time` fixes the day, so a retry hours later exports the same one. */
export function exportHandler(client: ExportClient, target: ExportTarget) {
  return async (event: { time?: string }): Promise<{ exportArn?: string; prefix: string }> => {
    const request = exportRequest(event.time ? new Date(event.time) : new Date(), target);
    const { ExportDescription } = await client.send(new ExportTableToPointInTimeCommand(request));
    logger.info('table export started', { exportArn: ExportDescription?.ExportArn, status: ExportDescription?.ExportStatus, prefix: request.S3Prefix });
    return { exportArn: ExportDescription?.ExportArn, prefix: request.S3Prefix! };
  };
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing required environment variable ${name} (the analytics export's)`);
  return value;
}

/** Deployed only with `-c analytics=true`: settings read and the client made once per container. */
export const handler = exportHandler(new DynamoDBClient({}), { tableArn: required('TABLE_ARN'), bucket: required('EXPORT_BUCKET'), kmsKeyArn: required('EXPORT_KEY_ARN') });
