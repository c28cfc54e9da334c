import { Inquiry, InquiryIdPath, InquiryPage, ListInquiriesQuery } from '../schemas/inquiries';
import { defineRoute } from './route';

export const listInquiries = defineRoute({
  operationId: 'listInquiries',
  method: 'GET',
  path: '/v1/inquiries',
  handler: 'inquiries/list',
  summary: 'List inquiries, newest first, filtered by lead and/or source',
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
  tag: 'Inquiries',
  dynamodb: ['Query'],
  status: 200,
  request: { path: InquiryIdPath },
  response: Inquiry,
  errors: [400, 404],
});

export const inquiryRoutes = [listInquiries, getInquiry];
