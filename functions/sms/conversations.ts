import * as v from 'valibot';
import { leadKeys, withLeadDefaults } from '../leads/entity';
import { LeadSummary } from '../leads/summaries';
import { memberKeys } from '../organization/member-entity';
import type { Page } from '#shared/pagination';
import { batchGetItems } from '#shared/store/batch-get';
import { pageOfMatches } from '#shared/store/match-page';
import { queryAll, type PageSource } from '#shared/store/query-page';
import { filterSignature } from '#shared/filters';
import type { Conversation, ListConversationsQuery } from './conversation-schema';

interface StoredConversation {
  leadId: string;
  gsi1sk: string;
  lastMessage: { id: string; direction: 'INBOUND' | 'OUTBOUND'; body: string; userId: string | null; at: string; inquiryId: string };
}

/** The leads' fields a conversation shows beside its latest text, and with expand=lead its lead's summary. */
const LEAD_FIELDS = ['id', 'status', 'unreadSMS', 'assignedMemberId'];
const SUMMARY_FIELDS = Object.keys(LeadSummary.entries);

const isClosed = (status: unknown) => status === 'WON' || status === 'LOST';

/**
 * A page of the organization's conversations, the latest text first. The organization's conversations are read whole
 * (one Query of their index, the few attributes a row needs) with their leads (a BatchGetItem of each hundred, a few
 * attributes each), so every filter and its count are exact without an index per filter; then the page's senders'
 * member ids. A conversation whose lead is gone (deleted as its text was recorded) is left out.
 */
export async function listConversationsPage(organizationId: string, query: ListConversationsQuery): Promise<Page<Conversation>> {
  const { page, limit, cursor, unread, assignedMemberId, status, expand } = query;
  const source: PageSource = { ...leadKeys.conversations(organizationId), index: 'gsi1' };
  const stored = (await queryAll(source, ['leadId', 'gsi1sk', 'lastMessage'])) as unknown as StoredConversation[];
  const leads = await batchGetItems(
    stored.map(({ leadId }) => leadKeys.lead(organizationId, leadId)),
    { attributes: expand ? [...new Set([...LEAD_FIELDS, ...SUMMARY_FIELDS])] : LEAD_FIELDS },
  );
  const leadById = new Map(leads.map((lead) => [String(lead.id), lead]));
  const rows = stored.flatMap((conversation) => {
    const lead = leadById.get(conversation.leadId);
    if (!lead) return [];
    const row = {
      conversation,
      ...(expand && { lead: v.parse(LeadSummary, withLeadDefaults(lead)) }),
      unreadCount: Number(lead.unreadSMS ?? 0),
      assignedMemberId: typeof lead.assignedMemberId === 'number' ? lead.assignedMemberId : null,
      status: isClosed(lead.status) ? ('CLOSED' as const) : ('OPEN' as const),
    };
    const kept = (unread === undefined || unread === row.unreadCount > 0) && (assignedMemberId === undefined || row.assignedMemberId === assignedMemberId) && (status === undefined || row.status === status);
    return kept ? [row] : [];
  });
  // Newest first by the index's sort key (the text's time, then the lead), which a cursor holds as the last row's.
  const filters = `?${filterSignature({ unread, assignedMemberId, status, expand })}`;
  const matched = await pageOfMatches(rows, ({ conversation }) => conversation.gsi1sk, { ...source, skPrefix: filters }, { page, limit, cursor });
  const senders = [...new Set(matched.items.flatMap(({ conversation }) => (conversation.lastMessage.userId ? [conversation.lastMessage.userId] : [])))];
  // None when every row's latest text is the customer's: a BatchGetItem of no keys is not sent.
  const users = await batchGetItems(senders.map((userId) => memberKeys.user(organizationId, userId)), { attributes: ['userId', 'memberId'] });
  const memberIdOf = new Map(users.map((user) => [String(user.userId), Number(user.memberId)]));
  const items = matched.items.map(({ conversation, ...row }): Conversation => {
    const { id, direction, body, at, userId, inquiryId } = conversation.lastMessage;
    return { leadId: conversation.leadId, lastMessage: { id, direction, body, at, memberId: (userId ? memberIdOf.get(userId) : undefined) ?? null, inquiryId }, ...row };
  });
  return { items, totalCount: matched.totalCount, page, limit, nextCursor: matched.nextCursor };
}
