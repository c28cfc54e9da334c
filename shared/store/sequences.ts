import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { keys } from './keys';
import { drawnOnce } from '../own-writes';

/**
 * Reserves `count` integer ids of one kind for an organization and returns the first.
 * Ids are never reused: a create that fails after reserving leaves a gap, as database sequences do.
 */
export const reserveIds = (organizationId: string, kind: string, count = 1): Promise<number> => drawnOnce(() => reserveFromSequence(organizationId, kind, count));

async function reserveFromSequence(organizationId: string, kind: string, count: number): Promise<number> {
  const { Attributes } = await dynamo.send(
    new UpdateCommand({
      TableName: config.tableName,
      Key: keys.sequence(organizationId, kind),
      UpdateExpression: 'ADD #value :count',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':count': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.value) - count + 1;
}

/** A sequence whose ids each container takes from blocks of `blockSize` it reserves with one UpdateItem. */
export interface BlockSequence {
  readonly kind: string;
  readonly blockSize: number;
}

/**
 * Declares a sequence taken in blocks: ids stay unique per organization (the blocks of the one sequence item are
 * disjoint) but are no longer in creation order across containers, and the rest of a block a container leaves
 * unused when it ends is a gap. Only for ids no list is sorted by.
 */
export function blockSequence(kind: string, blockSize: number): BlockSequence {
  if (!Number.isSafeInteger(blockSize) || blockSize < 1) throw new Error(`blockSequence ${kind}: blockSize must be a positive integer, not ${blockSize}`);
  return { kind, blockSize };
}

/** The ids one container takes from its blocks, per organization and kind. */
export interface IdBlocks {
  take(organizationId: string, sequence: BlockSequence): Promise<number>;
}

/**
 * One container's blocks. A take is answered from the organization's current block with no call; the first take
 * of an empty block reserves the next one, and takes arriving meanwhile (requests side by side in one process)
 * wait for that same reservation instead of sending their own. A failed reservation fails the takes waiting on it,
 * and the next take reserves again.
 */
export function idBlocks(reserve: typeof reserveIds = reserveIds): IdBlocks {
  const blocks = new Map<string, { next: number; last: number }>();
  const reserving = new Map<string, Promise<void>>();
  return {
    async take(organizationId, { kind, blockSize }) {
      const key = `${organizationId}#${kind}`;
      for (;;) {
        const block = blocks.get(key);
        // Synchronous from the check to the increment: no other take can run in between.
        if (block && block.next <= block.last) return block.next++;
        let reserved = reserving.get(key);
        if (!reserved) {
          reserved = reserve(organizationId, kind, blockSize)
            .then((first) => void blocks.set(key, { next: first, last: first + blockSize - 1 }))
            .finally(() => reserving.delete(key));
          reserving.set(key, reserved);
        }
        // More takes may be waiting than the block holds: those left over go round and reserve the next.
        await reserved;
      }
    },
  };
}

/** This container's blocks: module state, so they last as long as the function's container does. */
let container = idBlocks();

/** The next id of a block sequence for the organization: one UpdateItem per block, none for the others. */
export const takeId = (organizationId: string, sequence: BlockSequence): Promise<number> => drawnOnce(() => container.take(organizationId, sequence));

/**
 * Replaces this process's blocks, as a new container starts with none: tests play two containers (and one that
 * ends mid-block) through the one local server with it. Nothing in a function calls it.
 */
export function useIdBlocks(blocks: IdBlocks): void {
  container = blocks;
}
