import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { now } from '#shared/ids';
import { TTL_ATTRIBUTE } from '#shared/table';
import { transact, type TransactWrite } from '#shared/store/transact';
import type { Contribution } from './contributions';
import { MARK_TTL_SECONDS, REPORT_ENTITIES, reportKeys } from './entity';
import { NO_FACTS, type LeadFacts } from './facts';

/** A lead's facts as stored, with the version the next write is conditional on (0: none stored). */
export interface StoredFacts {
  facts: LeadFacts;
  v: number;
}

/** The record was counted already (its marker exists): a replay, nothing to do. */
export class AlreadyCounted extends Error {}
/** Another record of the same lead moved its facts since they were read: count this one again. */
export class FactsMoved extends Error {}

/** A facts item as stored (none: no facts, version 0). */
export function storedFactsOf(item: Record<string, unknown> | undefined): StoredFacts {
  if (!item) return { facts: NO_FACTS, v: 0 };
  const { createdAt, firstInquiryAt, firstInquirySource, contactTimes, maxStage, v } = item;
  return { facts: { createdAt, firstInquiryAt, firstInquirySource, contactTimes: contactTimes ?? [], maxStage: maxStage ?? -1 } as LeadFacts, v: Number(v) };
}

export async function readLeadFacts(organizationId: string, leadId: string): Promise<StoredFacts> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: reportKeys.reportLeadFacts(organizationId, leadId), ConsistentRead: true }));
  return storedFactsOf(Item);
}

/** The ADDs of one day item: every attribute's amount, the write count `v`, and when it last moved. */
function addToDay(organizationId: string, day: string, amounts: Contribution[], at: string): TransactWrite {
  const names = Object.fromEntries(amounts.map(({ attr }, index) => [`#a${index}`, attr]));
  const values = Object.fromEntries(amounts.map(({ amount }, index) => [`:a${index}`, amount]));
  return {
    item: {
      Update: {
        TableName: config.tableName,
        Key: reportKeys.reportDay(organizationId, day),
        UpdateExpression: `ADD ${[...Object.keys(names).map((name) => `${name} ${name.replace('#', ':')}`), '#v :one'].join(', ')} SET #entity = :entity, #updatedAt = :at`,
        ExpressionAttributeNames: { ...names, '#v': 'v', '#entity': 'entity', '#updatedAt': 'updatedAt' },
        ExpressionAttributeValues: { ...values, ':one': 1, ':entity': REPORT_ENTITIES.day, ':at': at },
      },
    },
  };
}

/** The facts' write: conditional on the version read, so two records of one lead racing on two shards cannot both win. */
export function writeFacts(organizationId: string, leadId: string, next: LeadFacts | undefined, seen: StoredFacts): TransactWrite {
  const key = reportKeys.reportLeadFacts(organizationId, leadId);
  const condition = seen.v === 0 ? { ConditionExpression: 'attribute_not_exists(pk)' } : { ConditionExpression: '#v = :seen', ExpressionAttributeNames: { '#v': 'v' }, ExpressionAttributeValues: { ':seen': seen.v } };
  const onConditionFailed = () => new FactsMoved();
  if (!next) return { item: { Delete: { TableName: config.tableName, Key: key, ...condition } }, onConditionFailed };
  return { item: { Put: { TableName: config.tableName, Item: { ...key, entity: REPORT_ENTITIES.facts, leadId, ...next, v: seen.v + 1 }, ...condition } }, onConditionFailed };
}

export interface Counted {
  organizationId: string;
  /** The stream record's eventID: its marker. */
  eventId: string;
  deltas: Contribution[];
  /** The lead facts to write (`next` undefined: delete them), when the record moved them. */
  facts?: { leadId: string; next: LeadFacts | undefined; seen: StoredFacts };
}

/**
 * One record's counting as one transaction: its marker (absent, or the record was counted: AlreadyCounted), the ADDs
 * of every day it moves, and its lead's facts (unchanged since read, or FactsMoved). All or nothing, so a replayed or
 * retried record never counts twice, and a failed one counts nothing.
 */
export async function writeCounted({ organizationId, eventId, deltas, facts }: Counted): Promise<void> {
  const at = now();
  const byDay = Map.groupBy(deltas, ({ day }) => day);
  const marker = { ...reportKeys.reportMark(organizationId, eventId), entity: REPORT_ENTITIES.mark, [TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) + MARK_TTL_SECONDS };
  await transact([
    { item: { Put: { TableName: config.tableName, Item: marker, ConditionExpression: 'attribute_not_exists(pk)' } }, onConditionFailed: () => new AlreadyCounted() },
    ...[...byDay].map(([day, amounts]) => addToDay(organizationId, day, amounts, at)),
    ...(facts ? [writeFacts(organizationId, facts.leadId, facts.next, facts.seen)] : []),
  ]);
}
