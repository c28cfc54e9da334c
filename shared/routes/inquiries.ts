import { Inquiry, InquiryIdPath, InquiryPage, ListInquiriesQuery } from '../schemas/inquiries';
import { defineRoute } from './route';

export const listInquiries = defineRoute({
  operationId: 'listInquiries',
  method: 'GET',
  path: '/v1/inquiries',
  handler: 'inquiries/list',
  summary: 'List inquiries, newest first, filtered by lead and/or source',
  description: 'Every contact from a lead (call, email, chatbot, SMS, web form), newest first. Filter by `leadId` and/or `source`; `totalCount` is exact for every filter. `expand=lead` adds each inquiry\'s lead, `expand=external` the id in the source system, `expand=both` both.',
  tag: 'Inquiries',
  dynamodb: ['Query', 'GetItem', 'BatchGetItem'],
  // One index per filter combination (docs/data-model.md).
  indexes: ['gsi1', 'gsi2', 'gsi3', 'gsi4'],
  status: 200,
  request: { query: ListInquiriesQuery },
  response: InquiryPage,
  errors: [400],
});

export const getInquiry = defineRoute({
  operationId: 'getInquiry',
  method: 'GET',
  path: '/v1/inquiries/{inquiryId}',
  handler: 'inquiries/get',
  summary: 'Read an inquiry with its populated source record',
  description: 'The inquiry with `data`, the populated record of its source: a call with its transcript and key points, an email, a chatbot conversation, an SMS thread with its messages, or a web form submission. Another organization\'s inquiry answers 404.',
  tag: 'Inquiries',
  dynamodb: ['Query'],
  status: 200,
  request: { path: InquiryIdPath },
  response: Inquiry,
  errors: [400, 404],
});

export const inquiryRoutes = [listInquiries, getInquiry];
