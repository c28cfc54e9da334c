import { PageQuery } from '../../shared/schema';
import { CreateFaqBody, FaqDeleted, FaqIdPath, FaqPage, FaqResponse, UpdateFaqBody } from './schema';
import { defineRoute } from '../../shared/routes/route';

export const createFaq = defineRoute({
  operationId: 'createFaq',
  method: 'POST',
  path: '/v1/faqs',
  handler: 'faqs/create',
  summary: 'Create an FAQ the AI receptionist can answer from',
  description: 'An FAQ the AI receptionist answers callers from. `question` and `answer` are trimmed and required; `isActive` defaults to true. Ids count up from 1 per organization.',
  tag: 'FAQs',
  dynamodb: ['UpdateItem', 'PutItem'],
  status: 201,
  request: { body: CreateFaqBody },
  response: FaqResponse,
  errors: [400],
});

export const listFaqs = defineRoute({
  operationId: 'listFaqs',
  method: 'GET',
  path: '/v1/faqs',
  handler: 'faqs/list',
  summary: 'List FAQs, newest first',
  description: 'Pages through the organization’s FAQs, newest first, with an exact `totalCount`.',
  tag: 'FAQs',
  dynamodb: ['Query', 'GetItem'],
  status: 200,
  request: { query: PageQuery },
  response: FaqPage,
  errors: [400],
});

export const updateFaq = defineRoute({
  operationId: 'updateFaq',
  method: 'PUT',
  alsoPatch: true,
  path: '/v1/faqs/{faqId}',
  handler: 'faqs/update',
  summary: 'Change an FAQ’s question, answer or isActive',
  description: 'Fields left out keep their values. Another organization’s FAQ answers 404.',
  tag: 'FAQs',
  dynamodb: ['UpdateItem'],
  status: 200,
  request: { path: FaqIdPath, body: UpdateFaqBody },
  response: FaqResponse,
  errors: [400, 404],
});

export const deleteFaq = defineRoute({
  operationId: 'deleteFaq',
  method: 'DELETE',
  path: '/v1/faqs/{faqId}',
  handler: 'faqs/delete',
  summary: 'Delete an FAQ',
  description: 'Removes the FAQ and lowers the FAQs count in one transaction. An FAQ already gone answers 404.',
  tag: 'FAQs',
  dynamodb: ['DeleteItem', 'UpdateItem'],
  status: 200,
  request: { path: FaqIdPath },
  response: FaqDeleted,
  errors: [400, 404],
});

export const faqRoutes = [listFaqs, createFaq, updateFaq, deleteFaq];
