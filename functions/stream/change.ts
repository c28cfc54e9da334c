import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { ItemChange } from '#shared/resource';

const image = (attributes: unknown) => (attributes ? unmarshall(attributes as Record<string, AttributeValue>) : undefined);

/** A record's committed change, with its position in the stream. */
export function changeOf({ eventName, dynamodb }: DynamoDBRecord): { change: ItemChange; sequenceNumber: string; streamTimeMs: number } | undefined {
  if (!eventName || !dynamodb?.SequenceNumber) return undefined;
  return {
    change: { kind: eventName, oldItem: image(dynamodb.OldImage), newItem: image(dynamodb.NewImage) },
    sequenceNumber: dynamodb.SequenceNumber,
    streamTimeMs: (dynamodb.ApproximateCreationDateTime ?? Date.now() / 1000) * 1000,
  };
}

