import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { ConflictError } from '#shared/errors';
import { deleteItem, type TransactWrite } from '#shared/store/transact';
import { leadKeys } from './entity';

/** The phone's opt-out is not what the write assumed: a STOP or START from it was recorded meanwhile. */
class PhoneOptOutDiffers extends Error {}

/** How often a write flips its assumption about a phone's opt-out before the caller is told to retry (STOP and START racing it). */
const OPT_OUT_ATTEMPTS = 4;

/** A phone's opt-out (STOP) held per organization, whichever lead has the phone, and outliving every lead. */
export function smsOptOutWrite(organizationId: string, phone: string, optedOut: boolean, at: string): TransactWrite {
  const key = leadKeys.smsOptOut(organizationId, phone);
  return optedOut ? { item: { Put: { TableName: config.tableName, Item: { ...key, entity: 'SMS_OPT_OUT', phone, optedOutAt: at } } } } : deleteItem(key);
}

/** The check, inside a lead's write, that the phone's opt-out is what the lead records. */
export function phoneOptOutIs(organizationId: string, phone: string, optedOut: boolean): TransactWrite {
  const key = leadKeys.smsOptOut(organizationId, phone);
  return { item: { ConditionCheck: { TableName: config.tableName, Key: key, ConditionExpression: optedOut ? 'attribute_exists(pk)' : 'attribute_not_exists(pk)' } }, onConditionFailed: () => new PhoneOptOutDiffers() };
}

/**
 * Runs a lead's write that takes on its phone's opt-out: assumed absent, checked in the write's transaction, and
 * written again the other way when the check fails. So a lead created or given a phone that said STOP starts
 * opted out, with no read in the common case. Answers the opt-out written.
 */
export async function withPhoneOptOut(write: (optedOut: boolean) => Promise<void>): Promise<boolean> {
  let optedOut = false;
  for (let attempt = 1; attempt <= OPT_OUT_ATTEMPTS; attempt++) {
    try {
      await write(optedOut);
      return optedOut;
    } catch (error) {
      if (!(error instanceof PhoneOptOutDiffers)) throw error;
      optedOut = !optedOut;
    }
  }
  throw new ConflictError('The lead’s phone opted out or in while it was written; try again');
}

/** Whether the phone replied STOP (and not START since), whichever lead has it: one GetItem. */
export async function isPhoneOptedOut(organizationId: string, phone: string): Promise<boolean> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: leadKeys.smsOptOut(organizationId, phone), ProjectionExpression: 'pk' }));
  return Item !== undefined;
}
