import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '#shared/observability';
import type { ItemChange } from '#shared/resource';
import { changeOf } from '../stream/change';
import { processInOrder, type Deadline } from '../stream/in-order';
import { contributions, difference, isCounted } from './contributions';
import { factContributions, feedsFacts, leadIdOf, mergeFacts, sameFacts } from './facts';
import { AlreadyCounted, FactsMoved, readLeadFacts, writeCounted, type Counted } from './count-store';
import { timezonesOnce } from './organization-once';

/** Times a record is counted again after another record of its lead moved the facts first; then it fails and is handed again. */
const FACTS_ATTEMPTS = 5;

/** The organization an item belongs to: every partition of the table starts with it. */
const organizationOf = (item: Record<string, unknown>) => String(item.pk).split('#')[1]!;

/** The facts' part of a record's counting: read, merged, and what the move of the facts contributes. */
async function withFacts(organizationId: string, entity: string, change: ItemChange, timezone: string): Promise<Pick<Counted, 'facts' | 'deltas'>> {
  const item = (change.newItem ?? change.oldItem)!;
  const leadId = feedsFacts(entity, change) ? leadIdOf(entity, item) : undefined;
  if (!leadId) return { deltas: [] };
  const seen = await readLeadFacts(organizationId, leadId);
  // A lead deleted takes its facts, and what they contributed, with it.
  const next = change.kind === 'REMOVE' ? undefined : mergeFacts(seen.facts, entity, change);
  if (next && sameFacts(next, seen.facts)) return { deltas: [] };
  if (!next && seen.v === 0) return { deltas: [] };
  return { deltas: difference(factContributions(next, timezone), factContributions(seen.facts, timezone)), facts: { leadId, next, seen } };
}

/** One record counted: what its change moves on the day items, and its lead's facts, in one transaction with its marker. */
async function countRecord(record: DynamoDBRecord, timezoneOf: (organizationId: string) => Promise<string>): Promise<void> {
  const { change } = changeOf(record) ?? {};
  const item = change?.newItem ?? change?.oldItem;
  const entity = item?.entity;
  if (!change || !item || !isCounted(entity)) return;
  // The marker is the record's eventID: without it, a record handed again could not be told from a new one.
  if (!record.eventID) throw new Error(`Stream record ${record.dynamodb?.SequenceNumber} has no eventID`);
  const organizationId = organizationOf(item);
  const timezone = await timezoneOf(organizationId);
  const own = difference(contributions(entity, change.newItem, timezone), contributions(entity, change.oldItem, timezone));
  for (let attempt = 1; ; attempt++) {
    const { deltas: moved, facts } = await withFacts(organizationId, entity, change, timezone);
    const deltas = difference([...own, ...moved], []);
    if (deltas.length === 0 && !facts) return;
    const written = await writeCounted({ organizationId, eventId: record.eventID, deltas, facts }).then(
      () => true,
      (error: unknown) => {
        if (error instanceof AlreadyCounted) return true;
        if (error instanceof FactsMoved && attempt < FACTS_ATTEMPTS) return false;
        throw error;
      },
    );
    if (written) return;
  }
}

/**
 * The table's stream → the reports' day counters (a second reader of the stream, beside RecordEvents, so a counting
 * fault holds back no event nor webhook). Record by record in the shard's order, stopping at the first that fails
 * (../stream/in-order.ts). Each record's counting is one transaction with a marker of its eventID, so a record
 * handed again, in a retried or bisected batch, counts nothing twice. Records of kinds not counted cost nothing.
 */
export async function handler(batch: DynamoDBStreamEvent, context?: Deadline): Promise<DynamoDBBatchResponse> {
  const timezoneOf = timezonesOnce();
  const answer = await processInOrder(batch.Records, (record) => countRecord(record, timezoneOf), context);
  logger.debug('stream batch counted', { records: batch.Records.length, failedAt: answer.batchItemFailures[0]?.itemIdentifier });
  return answer;
}
