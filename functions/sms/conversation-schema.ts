import * as v from 'valibot';
import { PageQuery, Timestamp, integerString, pageSchema } from '#shared/schema';
import { booleanString } from '#shared/filters';
import { prose } from '#shared/prose';
import { SMS_DIRECTIONS } from '../inquiries/schema';
import { LeadSummary } from '../leads/summaries';

/** OPEN while the lead is in play; CLOSED once it is WON or LOST (reopened by the lead's next status). */
export const CONVERSATION_STATUSES = ['OPEN', 'CLOSED'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

const WholeNumber = v.pipe(v.number(), v.integer());

/** One customer's conversation: the lead's latest text, sent or received, across its threads, with what the inbox shows beside it. */
export const Conversation = v.object({
  leadId: v.string(),
  lastMessage: v.pipe(
    v.object({
      /** The message's id: GET /v1/sms/{smsId} reads it whole. */
      id: v.string(),
      direction: v.picklist(SMS_DIRECTIONS),
      body: v.string(),
      at: Timestamp,
      memberId: v.pipe(v.nullable(WholeNumber), v.description('The member who sent an outbound text; null for the lead’s own and for one an automation sent.')),
      inquiryId: v.pipe(v.string(), v.description('The SMS inquiry holding its thread: GET /v1/inquiries/{inquiryId} shows the thread, and POST /v1/sms with its `messageThreadId` replies in it.')),
    }),
    v.description('The latest text recorded with the lead, in any of its threads.'),
  ),
  unreadCount: v.pipe(WholeNumber, v.description('The lead’s SMS threads with a reply nobody has read yet (the lead’s `unreadSMS`).')),
  assignedMemberId: v.pipe(v.nullable(WholeNumber), v.description('The member the lead is assigned to; null while unassigned.')),
  status: v.pipe(v.picklist(CONVERSATION_STATUSES), v.description('OPEN while the lead is in play; CLOSED while it is WON or LOST.')),
  lead: v.optional(v.pipe(LeadSummary, v.description('With `expand=lead`: who the customer is and how to reach them.'))),
});
export type Conversation = v.InferOutput<typeof Conversation>;

const { updatedSince: _notSynced, ...paging } = PageQuery.entries;

export const ListConversationsQuery = v.object({
  ...paging,
  unread: v.optional(v.pipe(booleanString('unread'), v.description('Only the conversations with an unread reply (`true`), or with none (`false`).'))),
  assignedMemberId: v.optional(v.pipe(integerString('assignedMemberId'), v.description('Only the conversations of the leads assigned to this member.'))),
  status: v.optional(v.pipe(v.picklist(CONVERSATION_STATUSES, `status must be one of ${CONVERSATION_STATUSES.join(', ')}`), v.description('Only OPEN or only CLOSED conversations.'))),
  expand: v.optional(v.pipe(v.picklist(['lead'], 'expand must be lead'), v.description('`lead`: each row with its lead’s summary (`lead`), read with the row at no extra call.'))),
});
export type ListConversationsQuery = v.InferOutput<typeof ListConversationsQuery>;

export const ConversationPage = pageSchema('conversations', Conversation);

export const CONVERSATIONS_DESCRIPTION = prose`
  One row per customer: each lead the organization has texted or been texted by, the latest text first, with that
  text (\`lastMessage\`: its direction, body, time and the member who sent it), the lead’s unread threads
  (\`unreadCount\`), the member it is assigned to and whether it is OPEN or CLOSED (the lead WON or LOST). A text is
  its lead’s latest from the moment it is recorded. Filter by \`unread\`, \`assignedMemberId\` and \`status\`, in any
  combination; \`totalCount\` is exact for each. A deleted lead’s conversation leaves the list.
`;
