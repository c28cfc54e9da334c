import { gunzipSync, gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { keys } from './keys';
import { TTL_ATTRIBUTE } from '../table';
import type { Attempt } from '../own-writes';
import { conditionNotHeld, writeAloneWhereHolds } from './transact';

/** An answer as the API sent it, kept to send again verbatim. */
export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim =
  /** The request may run, as `attempt`: its first, or a later one of a request whose outcome is unknown. */
  | { outcome: 'claimed'; attempt: Attempt }
  /** `replay` reads the kept answer, its parts too: only once the request is known to be the same one. */
  | { outcome: 'completed'; fingerprint: string; replay: () => Promise<StoredResponse> }
  | { outcome: 'in-progress'; fingerprint: string };

/** How long a completed answer is kept for replay. */
const KEEP_SECONDS = 24 * 60 * 60;
/** How long an unfinished claim holds the key: longer than any function runs, so a crashed one frees it. */
const LOCK_MS = 30_000;
/**
 * A later attempt begun within this of the first writes its records at the first's time, so it answers exactly as the
 * first would have; one begun later writes at its own, well inside the time sync waits for a change to show
 * (shared/store/change-log.ts), so no change is stamped too long before it is written.
 */
const SAME_TIME_WITHIN_MS = 10_000;

/**
 * Claims an Idempotency-Key for one request: free or expired, it starts a first attempt; held by an attempt whose
 * outcome is unknown (a 503, or a run that crashed and left its lock to expire), it starts a later attempt of the same
 * request, with the first's seed and start. Otherwise answers what holds it, so the caller can replay the answer or refuse.
 */
export async function claimIdempotencyKey(organizationId: string, key: string, fingerprint: string, at = Date.now()): Promise<Claim> {
  const seed = randomBytes(16).toString('base64url');
  const item = { ...keys.idempotency(organizationId, key), entity: 'IDEMPOTENCY', status: 'IN_PROGRESS', fingerprint, seed, startedAt: at, lockedUntil: at + LOCK_MS, draws: {}, [TTL_ATTRIBUTE]: Math.floor(at / 1000) + KEEP_SECONDS };
  const claimed = await writeAloneWhereHolds({
    item: {
      Put: {
        TableName: config.tableName,
        Item: item,
        ConditionExpression: 'attribute_not_exists(pk) OR #ttl < :nowSeconds',
        ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':nowSeconds': Math.floor(at / 1000) },
      },
    },
    onConditionFailed: conditionNotHeld,
  });
  const keepDraw = keepingDraws(organizationId, key);
  if (claimed) return { outcome: 'claimed', attempt: { seed, startedAtMs: at, timeAtMs: at, draws: {}, keepDraw } };
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.idempotency(organizationId, key), ConsistentRead: true }));
  // Gone between the two calls (released by a failed run): the caller may claim it now.
  if (!Item) return claimIdempotencyKey(organizationId, key, fingerprint, at);
  const held = Item as { status: string; fingerprint: string; response?: KeptResponse; lockedUntil?: number; seed?: string; startedAt?: number; draws?: Record<string, number> };
  if (held.status === 'COMPLETED' && held.response) {
    return { outcome: 'completed', fingerprint: held.fingerprint, replay: () => unpacked(organizationId, key, held.response!) };
  }
  const resumable = held.fingerprint === fingerprint && held.seed !== undefined && (held.status === 'UNKNOWN' || (held.lockedUntil ?? 0) < at);
  if (!resumable || !(await resumeAttempt(organizationId, key, held, at))) return { outcome: 'in-progress', fingerprint: held.fingerprint };
  const startedAtMs = held.startedAt ?? at;
  return { outcome: 'claimed', attempt: { seed: held.seed!, startedAtMs, timeAtMs: at - startedAtMs <= SAME_TIME_WITHIN_MS ? startedAtMs : at, draws: { ...held.draws }, keepDraw } };
}

/**
 * Notes an attempt's n-th draw on its key's record (one UpdateItem, before the id is written anywhere), so the attempt
 * that takes over a claim its crashed holder left takes the same ids. A record written before claims kept draws has
 * no map to note them in: its draws are kept, as before, only with an unknown outcome.
 */
const keepingDraws =
  (organizationId: string, key: string) =>
  (draw: string, id: number): Promise<boolean> =>
    writeAloneWhereHolds({
      item: {
        Update: {
          TableName: config.tableName,
          Key: keys.idempotency(organizationId, key),
          UpdateExpression: 'SET draws.#draw = :id',
          ConditionExpression: 'attribute_exists(draws)',
          ExpressionAttributeNames: { '#draw': draw },
          ExpressionAttributeValues: { ':id': id },
        },
      },
      onConditionFailed: conditionNotHeld,
    });

/** Takes over a claim whose attempt ended with its outcome unknown, if no other retry took it first. */
async function resumeAttempt(organizationId: string, key: string, held: { status: string; lockedUntil?: number }, at: number): Promise<boolean> {
  return writeAloneWhereHolds({
    item: {
      Update: {
        TableName: config.tableName,
        Key: keys.idempotency(organizationId, key),
        UpdateExpression: 'SET #status = :inProgress, lockedUntil = :lockedUntil, draws = if_not_exists(draws, :none)',
        ConditionExpression: '#status = :held AND lockedUntil = :heldUntil',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':inProgress': 'IN_PROGRESS', ':lockedUntil': at + LOCK_MS, ':held': held.status, ':heldUntil': held.lockedUntil ?? 0, ':none': {} },
      },
    },
    onConditionFailed: conditionNotHeld,
  });
}

/**
 * Leaves the key to a later attempt of the same request at once: the store did not answer, so what the request wrote
 * is unknown, and only a run with the same seed (and the same ids drawn) can find out without writing it twice.
 */
export async function leaveIdempotencyKeyUnknown(organizationId: string, key: string, { draws }: Pick<Attempt, 'draws'>): Promise<void> {
  await dynamo.send(
    new UpdateCommand({
      TableName: config.tableName,
      Key: keys.idempotency(organizationId, key),
      UpdateExpression: 'SET #status = :unknown, lockedUntil = :zero, draws = :draws',
      ConditionExpression: '#status = :inProgress',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':unknown': 'UNKNOWN', ':zero': 0, ':inProgress': 'IN_PROGRESS', ':draws': draws },
    }),
  );
}

/**
 * An answer as its record keeps it: the body as text, or, from COMPRESS_FROM bytes, gzipped; a gzipped body larger
 * than PART_BYTES goes on in part items beside the record. An answer is kept whatever its size, so a request that was
 * applied is never answered as if it had failed because its answer did not fit in one item (400 KB).
 */
type KeptResponse = Omit<StoredResponse, 'body'> & ({ body: string } | { gzip: Uint8Array; parts: number });

const COMPRESS_FROM = 16 * 1024;
const PART_BYTES = 350 * 1024;

async function unpacked(organizationId: string, key: string, kept: KeptResponse): Promise<StoredResponse> {
  if ('body' in kept) return kept;
  const { gzip, parts, ...rest } = kept;
  const others = await Promise.all(
    Array.from({ length: parts - 1 }, async (_, index) => {
      const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.idempotencyPart(organizationId, key, index + 1), ConsistentRead: true }));
      if (!Item) throw new Error(`Part ${index + 1} of the answer kept for an Idempotency-Key is missing`);
      return Item.gzip as Uint8Array;
    }),
  );
  return { ...rest, body: gunzipSync(Buffer.concat([gzip, ...others])).toString('utf8') };
}

/** Keeps the answer of the request that claimed the key, for 24 hours: its parts first, so a replay never finds the record without them. */
export async function completeIdempotencyKey(organizationId: string, key: string, fingerprint: string, response: StoredResponse, at = Date.now()): Promise<void> {
  const expiresAt = Math.floor(at / 1000) + KEEP_SECONDS;
  let kept: KeptResponse = response;
  if (Buffer.byteLength(response.body) >= COMPRESS_FROM) {
    const { body, ...rest } = response;
    const gzip = gzipSync(body);
    const parts = Array.from({ length: Math.ceil(gzip.length / PART_BYTES) }, (_, index) => gzip.subarray(index * PART_BYTES, (index + 1) * PART_BYTES));
    await Promise.all(
      parts.slice(1).map((part, index) =>
        dynamo.send(new PutCommand({ TableName: config.tableName, Item: { ...keys.idempotencyPart(organizationId, key, index + 1), entity: 'IDEMPOTENCY_PART', gzip: part, [TTL_ATTRIBUTE]: expiresAt } })),
      ),
    );
    kept = { ...rest, gzip: parts[0]!, parts: parts.length };
  }
  await dynamo.send(
    new PutCommand({
      TableName: config.tableName,
      Item: { ...keys.idempotency(organizationId, key), entity: 'IDEMPOTENCY', status: 'COMPLETED', fingerprint, response: kept, [TTL_ATTRIBUTE]: expiresAt },
    }),
  );
}

/** Frees the key after an answer that must not be replayed (a 400, a 5xx), so a retry runs again. */
export async function releaseIdempotencyKey(organizationId: string, key: string): Promise<void> {
  await dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: keys.idempotency(organizationId, key) }));
}
