import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The cold-start yardstick: a function that only creates the DynamoDB document client, bundled as every function is. */
const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async () => ({ statusCode: 200, body: String(Boolean(dynamo)) });
