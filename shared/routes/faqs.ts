import { CreateFaqBody, FaqResponse } from '../schemas/faqs';
import { defineRoute } from './route';

export const createFaq = defineRoute({
  operationId: 'createFaq',
  method: 'POST',
  path: '/v1/faqs',
  handler: 'faqs/create',
  summary: 'Create an FAQ the AI receptionist can answer from',
  tag: 'FAQs',
  dynamodb: ['UpdateItem', 'PutItem'],
  status: 201,
  request: { body: CreateFaqBody },
  response: FaqResponse,
  errors: [400],
});

export const faqRoutes = [createFaq];
