import { config } from '#shared/config';
import { wallClockAt } from '#shared/schedule';
import type { Key } from '#shared/store/keys';
import type { TransactWrite } from '#shared/store/transact';
import { TTL_ATTRIBUTE } from '#shared/table';
import { LIMITS } from '../catalog';
import { runKeys } from '../runs/entity';

/** What an SMS step refused by the cap records: the step is skipped and the run goes on. */
export const DAILY_CAP_REACHED = 'DAILY_CAP_REACHED';

/** A day's count outlives its day (in any timezone) by a day, then goes by itself. */
const CAP_TTL_SECONDS = 2 * 86_400;

/** The organization's cap of automated SMS one lead receives in one local day. */
export const dailyCapOf = (organizationItem: Record<string, unknown> | undefined): number => {
  const cap = organizationItem?.automationSmsDailyCap;
  return typeof cap === 'number' && cap >= 1 ? cap : LIMITS.dailySmsPerLead;
};

/** A day's count at `key`, moved by one on condition it is below the cap: refused (and not moved) at the cap. */
function countBelowCap(key: Key, entity: string, cap: number, atMs: number): TransactWrite {
  return {
    item: {
      Update: {
        TableName: config.tableName,
        Key: key,
        UpdateExpression: 'ADD #count :one SET #entity = :entity, #ttl = if_not_exists(#ttl, :ttl)',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :cap',
        ExpressionAttributeNames: { '#count': 'count', '#entity': 'entity', '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':one': 1, ':cap': cap, ':entity': entity, ':ttl': Math.floor(atMs / 1000) + CAP_TTL_SECONDS },
      },
    },
  };
}

/** The organization's local date of `atMs`: every cap counts the organization's own days. */
const localDate = (timezone: string, atMs: number) => wallClockAt(timezone, atMs).date;

/**
 * The lead's count of automated SMS for the organization's local day of `atMs`, moved by one on condition it is
 * below the cap: written in the SMS's own transaction, so a text refused by the cap is never recorded, and one
 * recorded is always counted.
 */
export function dailyCapWrite(organizationId: string, leadId: string, cap: number, timezone: string, atMs: number): { write: TransactWrite; refusal: string } {
  const key = runKeys.dailyCap(organizationId, leadId, localDate(timezone, atMs));
  return { write: countBelowCap(key, 'AUTOMATION_SMS_CAP', cap, atMs), refusal: DAILY_CAP_REACHED };
}

/** The member's count of notify_member texts for the organization's local day of `atMs`, in the claim of each text. */
export function memberCapWrite(organizationId: string, memberId: number, timezone: string, atMs: number): { write: TransactWrite; refusal: string } {
  const key = runKeys.memberDailyCap(organizationId, memberId, localDate(timezone, atMs));
  return { write: countBelowCap(key, 'AUTOMATION_MEMBER_SMS_CAP', LIMITS.dailyTextsPerMember, atMs), refusal: DAILY_CAP_REACHED };
}

/** The count of an automation's runs for a lead on the organization's local day of `atMs` (when it starts), in the run's own put. */
export function runCapWrite(organizationId: string, automationId: string, leadId: string, timezone: string, atMs: number): TransactWrite {
  const key = runKeys.dailyRuns(organizationId, automationId, leadId, localDate(timezone, atMs));
  return countBelowCap(key, 'AUTOMATION_RUN_CAP', LIMITS.runsPerLeadPerDay, atMs);
}
