import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { newLead } from '../../functions/leads/rules';
import { dynamo } from '#shared/dynamo';
import { inquiryCounterNames, toInquiryItem, toInquirySourceItem, type InquiryRecord } from '../../functions/inquiries/entity';
import { leadCounterNames, toLeadItem } from '../../functions/leads/entity';
import { newId } from '#shared/ids';
import { counterUpdate } from '#shared/store/counters';
import { inParallel } from './timing';

/** DynamoDB's BatchWriteItem limit. */
const BATCH = 25;

/**
 * `count` leads, each with one CALL inquiry, written with the entities' own item mappers in BatchWriteItem calls,
 * then the list counters moved once by the total: the items and counters the repositories leave, at the speed
 * a benchmark needs (the create path's transactions would take half an hour for 20 000 on DynamoDB Local).
 * Activities and per-lead counters are left out: the measured lists do not read them.
 */
export async function bulkLoadCallInquiries(organizationId: string, count: number, progress: (line: string) => void): Promise<void> {
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const at = new Date(Date.UTC(2025, 0, 1) + i * 60_000);
    const createdAt = at.toISOString();
    const inquiryId = newId('inquiry', at);
    const lead = { ...newLead({ name: `Caller ${i}`, phone: `+6140${String(i).padStart(7, '0')}` }, newId('lead', at), createdAt), lastInquiryId: inquiryId, lastInquiryDate: createdAt, unreadCalls: 1 };
    const inquiry: InquiryRecord = { id: inquiryId, source: 'CALL', sourceId: newId('call', at), tag: 'GENERAL', summary: `Call ${i} about a leaking tap`, callOutcome: 'ANSWERED', isFirstInquiry: true, isRead: false, leadId: lead.id, createdAt, updatedAt: createdAt, externalInquiryId: null };
    const call = { id: inquiry.sourceId, summary: inquiry.summary, keyPoints: ['Leaking tap'], recordingUrl: null, transcripts: [{ created_at: createdAt, text: 'My tap is leaking.', user: 'user' }], direction: 'LEAD_TO_AI', duration: 60, startedAt: createdAt, endedAt: createdAt, endedBy: 'user' };
    items.push(toLeadItem(organizationId, lead), toInquiryItem(organizationId, inquiry), toInquirySourceItem(organizationId, inquiry.id, 'CALL', call as never));
  }
  const batches = Math.ceil(items.length / BATCH);
  await inParallel(batches, 8, async (b) => {
    let requests = items.slice(b * BATCH, (b + 1) * BATCH).map((Item) => ({ PutRequest: { Item } }));
    while (requests.length) {
      const { UnprocessedItems } = await dynamo.send(new BatchWriteCommand({ RequestItems: { [config.tableName]: requests } }));
      requests = (UnprocessedItems?.[config.tableName] ?? []) as typeof requests;
    }
    if ((b + 1) % 400 === 0) progress(`scale: ${Math.round(((b + 1) / batches) * count)} of ${count} loaded`);
  });
  const counters = [leadCounterNames.leads(), leadCounterNames.leads({ status: 'NEW' }), inquiryCounterNames.inquiries(), inquiryCounterNames.inquiries({ source: 'CALL' })];
  for (const name of counters) await dynamo.send(new UpdateCommand(counterUpdate(organizationId, name, count).item.Update as never));
}
