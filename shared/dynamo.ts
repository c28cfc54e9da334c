import { DynamoDBClient, TransactionCanceledException, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ItemTooLargeError } from './errors';
import { recogniseOwnEarlierAttempts } from './own-writes';
import { requestCredentials } from './tenancy/credentials';

/**
 * A hung DynamoDB must fail a request well inside the function's timeout (15 s) rather than hold it:
 * three attempts of at most 1 s to connect and 3 s to answer, with the SDK's backoff between them.
 */
export const DYNAMODB_TIMEOUTS = { connectionTimeout: 1_000, requestTimeout: 3_000, throwOnRequestTimeout: true } as const;
export const DYNAMODB_MAX_ATTEMPTS = 3;

/**
 * The SDK's logger middleware builds a redacted copy of every call's input and output for `logger.info`, even
 * when that is its no-op logger's; a logger without `info` skips the work (4 % of a busy process's CPU in
 * `npm run bench`). The SDK logs nothing else at other levels that this service reads.
 */
const SDK_LOGGER = { trace: () => undefined, debug: () => undefined, warn: () => undefined, error: () => undefined } as unknown as NonNullable<DynamoDBClientConfig['logger']>;

/**
 * One client per container, and the only one (test/tenancy.test.ts holds it so). The endpoint comes from the SDK's own
 * settings (AWS_ENDPOINT_URL_DYNAMODB), so this code is the same in Lambda and locally. Each call is signed for the
 * organization the work acts for (shared/tenancy/credentials.ts): one client and one pool of sockets serve them all.
 */
export const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({ maxAttempts: DYNAMODB_MAX_ATTEMPTS, requestHandler: DYNAMODB_TIMEOUTS, logger: SDK_LOGGER, credentials: requestCredentials }), {
  marshallOptions: { removeUndefinedValues: true },
});

const ITEM_SIZE = /item size/i;

function isItemTooLarge(error: unknown): boolean {
  if (error instanceof TransactionCanceledException) {
    return (error.CancellationReasons ?? []).some((reason) => reason.Code === 'ValidationError' && ITEM_SIZE.test(reason.Message ?? ''));
  }
  return (error as Error).name === 'ValidationException' && ITEM_SIZE.test((error as Error).message);
}

// Only oversized input reaches DynamoDB's 400 KB item limit (the schemas bound each field, not
// their sum in bytes), so it is named as the domain error it is rather than left a fault of ours.
dynamo.middlewareStack.add(
  (next) => async (args) =>
    next(args).catch((error: unknown) => {
      throw isItemTooLarge(error) ? new ItemTooLargeError() : error;
    }),
  { step: 'initialize', name: 'itemTooLargeIsDomainError' },
);

// A conditional write sent again after a timeout (by the SDK, or by a retried request) meets its own item: it succeeded.
recogniseOwnEarlierAttempts(dynamo);
