import { Inquiry, InquiryUpdated, } from './schema';
import { IngestedInquiry, IngestInquiryBody } from './ingestion-schema';
import { createRow } from '#shared/routes/rows';
import * as schema from './schema';
import { recordRows } from '#shared/routes/record-rows';
import { prose } from '#shared/prose';

const inquiry = recordRows(schema, { tag: 'Inquiries', names: { one: 'Inquiry', many: 'Inquiries' }, path: '/v1/inquiries', given: { response: Inquiry }, changeLog: true });

export const listInquiries = inquiry.list({
  summary: 'List inquiries, newest first, filtered by lead, source, read state, call outcome and/or creation time',
  description: prose`
    Every contact from a lead (call, email, chatbot, SMS, web form), newest first. Filter by \`leadId\`, \`source\`,
    \`isRead\` (\`false\`: the inbox), \`callOutcome\` (the missed or transferred calls), and by \`createdSince\`
    (inquiries created at or after an instant: new ones since a visit) and \`createdBefore\`, in any combination; \`totalCount\` is exact
    for every filter. \`expand=lead\` adds each inquiry’s lead, \`expand=external\` the id in the source system,
    \`expand=both\` both.
  `,
  dynamodb: ['Query', 'GetItem', 'BatchGetItem'],
  // An index partition per filter combination, a lead's filtered and a call outcome kept by a filter within the calls'
  // (docs/data-model.md); createdSince is a key range of it, as ids are ULIDs of createdAt.
  indexes: ['gsi1', 'gsi2', 'gsi3', 'gsi4', 'gsi5'],
});

export const getInquiry = inquiry.get({
  summary: 'Read an inquiry with its populated source record',
  description: 'The inquiry with `data`, the populated record of its source: a call with its transcript and key points, an email, a chatbot conversation, an SMS thread with its messages, or a web form submission. Another organization\'s inquiry answers 404.',
  dynamodb: ['Query'],
});

export const ingestInquiry = createRow({
  operationId: 'ingestInquiry',
  path: '/v1/inquiries',
  summary: 'Record an inquiry from a call, email, chatbot or web form',
  description: prose`
    For integrations that push inquiries in: \`data\` is the source record (docs/inquiry-sources.md) without its id.
    The lead is the organization’s lead with \`lead.email\` (any case), else with \`lead.phone\`, else a new lead
    (with its LEAD_CREATED activity); at least one of the two is required. The inquiry, the lead’s unread count and
    latest inquiry, \`isFirstInquiry\`, an INQUIRY_RECEIVED activity and the counters are one transaction. The same
    \`externalInquiryId\` again for the same source answers 200 with the first inquiry and records nothing.
  `,
  tag: 'Inquiries',
  // Finds the lead (GetItem of its contacts' claims, then of the lead), reserves activity ids (UpdateItem),
  // and records in transactions (Put, Update, ConditionCheck); a repeat is two GetItems.
  dynamodb: ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'],
  request: { body: IngestInquiryBody },
  requestExample: {
    source: 'WEBFORM',
    lead: { email: 'olivia.nguyen@example.com.au', phone: '+61412345001', name: 'Olivia Nguyen' },
    summary: 'Quote request for a blocked kitchen drain.',
    tag: 'QUOTE_REQUEST',
    externalInquiryId: 'form-submission-8812',
    data: {
      formName: 'Request a quote',
      fields: [
        { name: 'suburb', label: 'Suburb', value: 'Parramatta' },
        { name: 'message', label: 'How can we help?', value: 'The kitchen sink drains very slowly.' },
      ],
      submittedAt: '2026-11-20T04:12:09.512Z',
      pageUrl: 'https://www.harbourcitytrades.com.au/quote',
    },
  },
  response: IngestedInquiry,
  responses: { 200: { description: 'This `externalInquiryId` was sent before for this source: the first inquiry, nothing recorded again.', schema: IngestedInquiry } },
});

export const updateInquiry = inquiry.update({
  summary: 'Mark an inquiry read or unread, or retag it',
  description: prose`
    Marking an inquiry read lowers its lead’s unread count for the source by one (unread raises it); a tag that flags
    (FLAGGED, EMERGENCY) or stops flagging keeps the lead’s \`hasFlaggedInquiry\` right. The inquiry and its lead
    change in one transaction. Another organization’s inquiry answers 404.
  `,
  // Reads the inquiry, the lead and the flagged count (GetItem); one transaction updates and checks.
  dynamodb: ['GetItem', 'UpdateItem'],
  response: InquiryUpdated,
  errors: [409],
});

export const inquiryRoutes = [listInquiries, getInquiry, ingestInquiry, updateInquiry];
