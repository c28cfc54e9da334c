import { config } from '#shared/config';
import { wallClockAt } from '#shared/schedule';
import type { TransactWrite } from '#shared/store/transact';
import { TTL_ATTRIBUTE } from '#shared/table';
import { LIMITS } from './catalog';
import { runKeys } from './run-entity';

/** What an SMS step refused by the cap records: the step is skipped and the run goes on. */
export const DAILY_CAP_REACHED = 'DAILY_CAP_REACHED';

/** A day's count outlives its day (in any timezone) by a day, then goes by itself. */
const CAP_TTL_SECONDS = 2 * 86_400;

/** The organization's cap of automated SMS one lead receives in one local day. */
export const dailyCapOf = (organizationItem: Record<string, unknown> | undefined): number => {
  const cap = organizationItem?.automationSmsDailyCap;
  return typeof cap === 'number' && cap >= 1 ? cap : LIMITS.dailySmsPerLead;
};

/**
 * The lead's count of automated SMS for the organization's local day of `atMs`, moved by one on condition it is
 * below the cap: written in the SMS's own transaction, so a text refused by the cap is never recorded, and one
 * recorded is always counted.
 */
export function dailyCapWrite(organizationId: string, leadId: string, cap: number, timezone: string, atMs: number): { write: TransactWrite; refusal: string } {
  const key = runKeys.dailyCap(organizationId, leadId, wallClockAt(timezone, atMs).date);
  const write: TransactWrite = {
    item: {
      Update: {
        TableName: config.tableName,
        Key: key,
        UpdateExpression: 'ADD #count :one SET #entity = :entity, #ttl = if_not_exists(#ttl, :ttl)',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :cap',
        ExpressionAttributeNames: { '#count': 'count', '#entity': 'entity', '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':one': 1, ':cap': cap, ':entity': 'AUTOMATION_SMS_CAP', ':ttl': Math.floor(atMs / 1000) + CAP_TTL_SECONDS },
      },
    },
  };
  return { write, refusal: DAILY_CAP_REACHED };
}
