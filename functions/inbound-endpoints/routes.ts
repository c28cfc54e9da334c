import { IngestedInquiry } from '../inquiries/ingestion-schema';
import {
  CreateInboundEndpointBody,
  InboundEndpointCreated,
  InboundEndpointDeleted,
  InboundEndpointIdPath,
  InboundEndpointListQuery,
  InboundEndpointPage,
  InboundEndpointResponse,
  InboundQuery,
  UpdateInboundEndpointBody,
  MAX_INBOUND_BYTES,
} from './schema';
import { defineRoute } from '../../shared/routes/route';

export const createInboundEndpoint = defineRoute({
  operationId: 'createInboundEndpoint',
  method: 'POST',
  path: '/v1/inbound-endpoints',
  summary: 'Create a URL that a web form, email parser or agent can post inquiries to',
  description:
    'For senders that cannot send an API key. The answer’s `url` carries a token (shown only here, stored hashed); senders that can sign use `secret` (`whsec_…`) with Standard Webhooks headers instead. `fieldMap` renames a form’s own field names to `email`, `phone`, `name`, `firstName`, `lastName` or `message`.',
  tag: 'Inbound',
  dynamodb: ['PutItem', 'UpdateItem'],
  status: 201,
  request: { body: CreateInboundEndpointBody },
  requestExample: { name: 'Website quote form', source: 'WEBFORM' },
  response: InboundEndpointCreated,
  errors: [400],
});

export const listInboundEndpoints = defineRoute({
  operationId: 'listInboundEndpoints',
  method: 'GET',
  path: '/v1/inbound-endpoints',
  summary: 'List inbound endpoints, newest first',
  description: 'Never the tokens or secrets.',
  tag: 'Inbound',
  dynamodb: ['Query', 'GetItem'],
  // gsi6: the change log read with updatedSince.
  indexes: ['gsi6'],
  status: 200,
  request: { query: InboundEndpointListQuery },
  response: InboundEndpointPage,
  errors: [400],
});

export const getInboundEndpoint = defineRoute({
  operationId: 'getInboundEndpoint',
  method: 'GET',
  path: '/v1/inbound-endpoints/{inboundEndpointId}',
  summary: 'Read an inbound endpoint',
  description: 'As the list shows it: never its token or secret (the token is stored only hashed; rotate to get new ones).',
  tag: 'Inbound',
  dynamodb: ['GetItem'],
  status: 200,
  request: { path: InboundEndpointIdPath },
  response: InboundEndpointResponse,
  errors: [400, 404],
});

export const updateInboundEndpoint = defineRoute({
  operationId: 'updateInboundEndpoint',
  method: 'PATCH',
  path: '/v1/inbound-endpoints/{inboundEndpointId}',
  summary: 'Change an inbound endpoint’s name, source or fieldMap',
  description: 'Fields left out keep their values; `fieldMap: null` removes the map. The URL, its token and the signing secret stay as they are, so forms already posting to it keep working; posts after the change are read with the new settings.',
  tag: 'Inbound',
  dynamodb: ['UpdateItem'],
  status: 200,
  request: { path: InboundEndpointIdPath, body: UpdateInboundEndpointBody },
  requestExample: { name: 'Website quote form', fieldMap: { your_email: 'email', mobile: 'phone', full_name: 'name' } },
  response: InboundEndpointResponse,
  errors: [400, 404],
});

export const deleteInboundEndpoint = defineRoute({
  operationId: 'deleteInboundEndpoint',
  method: 'DELETE',
  path: '/v1/inbound-endpoints/{inboundEndpointId}',
  summary: 'Delete an inbound endpoint',
  description: 'Its URL answers 401 from then on.',
  tag: 'Inbound',
  dynamodb: ['DeleteItem', 'UpdateItem'],
  status: 200,
  request: { path: InboundEndpointIdPath },
  response: InboundEndpointDeleted,
  errors: [400, 404],
});

export const rotateInboundEndpoint = defineRoute({
  operationId: 'rotateInboundEndpoint',
  method: 'POST',
  path: '/v1/inbound-endpoints/{inboundEndpointId}/rotate',
  summary: 'Issue a new token and secret for an inbound endpoint',
  description: 'Answers the new `url` and `secret`; the old token and secret stop working at once.',
  tag: 'Inbound',
  dynamodb: ['GetItem', 'UpdateItem'],
  status: 200,
  request: { path: InboundEndpointIdPath },
  response: InboundEndpointCreated,
  errors: [400, 404],
});

export const receiveInbound = defineRoute({
  operationId: 'receiveInbound',
  method: 'POST',
  path: '/v1/inbound/{inboundEndpointId}',
  summary: 'Post an inquiry to an inbound endpoint (no API key)',
  description: `Authenticated by the endpoint URL's \`token\`, or by Standard Webhooks headers (\`webhook-id\`, \`webhook-timestamp\` within 5 minutes, \`webhook-signature\`) signed with the endpoint's secret; anything else answers 401 and records nothing. The body is \`application/json\` or \`application/x-www-form-urlencoded\` (what an HTML form posts), at most ${MAX_INBOUND_BYTES / 1024} KB. A WEBFORM endpoint keeps every field and finds the lead from email, phone and name; an EMAIL endpoint takes a parsed email (from, to, subject, text or html); CALL and CHATBOT take \`{lead, data, summary?, tag?}\` as POST /v1/inquiries does. The same sender id again (\`externalInquiryId\`, or the \`webhook-id\` or \`Idempotency-Key\` header) answers 200 with the first inquiry. Every post counts against the endpoint's organization's usage plan, as a request with its API key does (a post with a wrong token too): beyond it, 429 \`RATE_LIMITED\` with \`Retry-After\`.`,
  tag: 'Inbound',
  auth: 'none',
  // No API key, yet metered: the gateway's inbound authorizer names the endpoint's organization for its usage plan.
  authorizer: 'inboundEndpoint',
  // The endpoint by id (gsi1), then what POST /v1/inquiries does.
  dynamodb: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'ConditionCheckItem'],
  indexes: ['gsi1', 'gsi5'],
  throttle: { rateLimit: 20, burstLimit: 40 },
  status: 201,
  request: { path: InboundEndpointIdPath, query: InboundQuery },
  response: IngestedInquiry,
  errors: [400, 401, 413, 415],
  responses: {
    200: { description: 'The sender’s id was seen before: the first inquiry, nothing recorded again.', schema: IngestedInquiry },
    401: { description: 'Neither the endpoint’s token nor a valid Standard Webhooks signature (or the endpoint does not exist): nothing is recorded.' },
  },
});

export const inboundEndpointRoutes = [createInboundEndpoint, listInboundEndpoints, getInboundEndpoint, updateInboundEndpoint, deleteInboundEndpoint, rotateInboundEndpoint, receiveInbound];
