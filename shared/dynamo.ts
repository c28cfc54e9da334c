import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * One client per container. The endpoint comes from the SDK's own settings
 * (AWS_ENDPOINT_URL_DYNAMODB), so this code is the same in Lambda and locally.
 */
export const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true },
});
