import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { config } from '#shared/config';
import { asLambdaRecord, startTableStream } from '../../infra/local/table-stream';
import type { TestApi } from './api';

/**
 * Every record the table's stream holds that is of this organization (its keys name it), in the stream's order, once
 * the running consumers have caught up: what a test replays through a consumer's handler as a redelivered batch.
 */
export async function streamRecordsOf(api: TestApi, organizationId: string): Promise<DynamoDBRecord[]> {
  await api.eventsCaughtUp();
  const records: DynamoDBRecord[] = [];
  const reader = await startTableStream({
    endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB!,
    tableName: config.tableName,
    handler: async ({ Records }) => void records.push(...Records),
    onError: (error) => {
      throw error;
    },
  });
  await reader.caughtUp();
  await reader.stop();
  return records.filter((record) => JSON.stringify(record.dynamodb?.Keys).includes(organizationId));
}

/**
 * The INSERT record of a stored item as Lambda's event source mapping hands it, at `sequenceNumber` (a new position
 * makes its events new to the table), by the same conversion the local stream reader uses.
 */
export function insertRecordOf(item: Record<string, unknown>, sequenceNumber: string, eventID = `insert-${sequenceNumber}`): DynamoDBRecord {
  return asLambdaRecord({
    eventID,
    eventName: 'INSERT',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'ddblocal',
    dynamodb: { ApproximateCreationDateTime: new Date(), Keys: marshall({ pk: item.pk, sk: item.sk }), NewImage: marshall(item), SequenceNumber: sequenceNumber, SizeBytes: 512, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  } as never);
}
