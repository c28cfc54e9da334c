import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { ApiError } from '#shared/errors';
import { readItem } from '#shared/store/read-item';
import { conditionNotHeld, deleteItem, insertIfAbsent, writeAloneAnsweringOld } from '#shared/store/transact';
import { setFields } from '#shared/store/update-fields';

// The store kernel's single-item calls that sign-in's codes, sessions and passkeys stand on, against DynamoDB Local.
let made = 0;
const freshKey = () => ({ pk: 'ORG#org_kernel', sk: `ITEM#${++made}` });
const put = (item: Record<string, unknown>) => dynamo.send(new PutCommand({ TableName: config.tableName, Item: item }));

describe('readItem', () => {
  it('answers the item as written a moment ago, and undefined for a key with none', async () => {
    const key = freshKey();
    expect(await readItem(key)).toBeUndefined();
    await put({ ...key, challenge: 'c1' });
    expect(await readItem(key)).toEqual({ ...key, challenge: 'c1' });
    // One character more in the sort key is another item.
    expect(await readItem({ ...key, sk: `${key.sk}0` })).toBeUndefined();
  });

  it('asks DynamoDB for a consistent read (DynamoDB Local is always consistent, so the request itself is what shows it)', async () => {
    const asked: unknown[] = [];
    const name = 'watchGets';
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if (/^Get/.test(String(context.commandName))) asked.push((args.input as { ConsistentRead?: boolean }).ConsistentRead);
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      await readItem(freshKey());
    } finally {
      dynamo.middlewareStack.remove(name);
    }
    expect(asked).toEqual([true]);
  });
});

describe('writeAloneAnsweringOld', () => {
  it('answers a delete the item it deleted, and a second delete of it nothing, where its condition no longer holds', async () => {
    const key = freshKey();
    await put({ ...key, challenge: 'c2' });
    expect(await writeAloneAnsweringOld(deleteItem(key, conditionNotHeld))).toEqual({ ...key, challenge: 'c2' });
    expect(await writeAloneAnsweringOld(deleteItem(key, conditionNotHeld))).toBeUndefined();
    expect(await readItem(key)).toBeUndefined();
  });

  it('gives the item to one of two deletes at once: a challenge is taken once', async () => {
    for (let round = 0; round < 5; round++) {
      const key = freshKey();
      await put({ ...key, challenge: `c${round}` });
      const answers = await Promise.all([writeAloneAnsweringOld(deleteItem(key, conditionNotHeld)), writeAloneAnsweringOld(deleteItem(key, conditionNotHeld))]);
      expect(answers.filter((answer) => answer !== undefined)).toEqual([{ ...key, challenge: `c${round}` }]);
    }
  });

  it('answers an update the item as it was before it, the update made', async () => {
    const key = freshKey();
    await put({ ...key, idleEndsAt: '2026-11-28T10:00:00.000Z' });
    const before = await writeAloneAnsweringOld(setFields(key, { idleEndsAt: '2026-11-28T09:00:00.000Z' }, { onConditionFailed: conditionNotHeld }));
    expect(before).toEqual({ ...key, idleEndsAt: '2026-11-28T10:00:00.000Z' });
    // The update also marks the item with its write's own token (shared/own-writes.ts), which a retry recognises.
    expect(await readItem(key)).toEqual({ ...key, idleEndsAt: '2026-11-28T09:00:00.000Z', writeToken: expect.any(String) });
    // An update of no item makes none (setFields holds the item to exist).
    const missing = freshKey();
    expect(await writeAloneAnsweringOld(setFields(missing, { idleEndsAt: 'x' }, { onConditionFailed: conditionNotHeld }))).toBeUndefined();
    expect(await readItem(missing)).toBeUndefined();
  });

  it('throws the error a failed condition means when it is not conditionNotHeld, and a fault of ours when the write names none', async () => {
    const key = freshKey();
    const gone = () => new ApiError(404, 'Challenge not found', 'NOT_FOUND');
    await expect(writeAloneAnsweringOld(deleteItem(key, gone))).rejects.toThrow('Challenge not found');
    await expect(writeAloneAnsweringOld({ item: deleteItem(key, conditionNotHeld).item })).rejects.toThrow(`Condition failed unexpectedly: Delete ${key.pk}/${key.sk}`);
  });

  it('lets a store failure through as itself, never as a condition that did not hold', async () => {
    const key = freshKey();
    await put({ ...key, challenge: 'kept' });
    const name = 'storeTimesOut';
    dynamo.middlewareStack.add(
      () => async () => {
        throw Object.assign(new Error('Socket timed out without establishing a connection within 1000 ms'), { name: 'TimeoutError' });
      },
      { step: 'initialize', name },
    );
    try {
      await expect(writeAloneAnsweringOld(deleteItem(key, conditionNotHeld))).rejects.toThrow('Socket timed out');
    } finally {
      dynamo.middlewareStack.remove(name);
    }
    expect(await readItem(key)).toEqual({ ...key, challenge: 'kept' });
  });

  it('takes an Update or a Delete only: a Put is refused before anything is sent', async () => {
    const key = freshKey();
    await expect(writeAloneAnsweringOld(insertIfAbsent({ ...key, challenge: 'c' }))).rejects.toThrow(`writeAloneAnsweringOld takes an Update or Delete, not Put ${key.pk}/${key.sk}`);
    expect(await readItem(key)).toBeUndefined();
  });
});
