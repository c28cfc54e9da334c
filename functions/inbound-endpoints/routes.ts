import type { IngestedInquiry } from '../inquiries/ingestion-schema';
import {
  InboundEndpointCreated,
  InboundEndpointIdPath,
  InboundQuery,
  InboundRepeat,
  MAX_CALL_PLATFORM_BYTES,
  MAX_FORM_WITH_FILES_BYTES,
  MAX_INBOUND_BYTES,
} from './schema';
import { defineRoute } from '#shared/routes/route';
import { describedByResource } from '#shared/routes/described';
import * as schema from './schema';
import { recordRows } from '#shared/routes/record-rows';
import { INBOUND_ROUTE_THROTTLE } from '#shared/auth/usage-plans';
import { INBOUND_SOURCE_SHARE } from './source-limits';
import { opensSecrets, sealsSecrets } from '#shared/sealing-key';
import { prose } from '#shared/prose';

const endpoint = recordRows(schema, { tag: 'Inbound', names: { one: 'InboundEndpoint', many: 'InboundEndpoints' }, path: '/v1/inbound-endpoints', changeLog: true });

export const createInboundEndpoint = endpoint.create({
  summary: 'Create a URL that a web form, email parser or agent can post inquiries to',
  description: prose`
    For senders that cannot send an API key. The answer’s \`url\` carries a token (shown only here, stored hashed);
    senders that can sign use \`secret\` (\`whsec_…\`) with Standard Webhooks headers instead. A CALL endpoint may
    take a voice platform’s post-call webhook as the platform sends it: \`format: "retell"\` (with
    \`platformSecret\`, the Retell API key that signs its webhooks, write-only) or \`format: "vapi"\` (a Vapi Bearer
    Token credential, or its legacy server secret, set to this \`secret\`); \`format\` is \`native\` otherwise.
    \`fieldMap\` renames a form’s own field names to \`email\`, \`phone\`, \`name\`, \`firstName\`, \`lastName\` or
    \`message\`. For HTML forms, \`redirectUrl\` and \`errorRedirectUrl\` (https) are where a visitor is sent after
    the post is recorded or refused; \`allowedOrigins\` (exact origins, \`https://host[:port]\`) lets pages on those
    sites post JSON from the browser (CORS), and with \`enforceOrigin: true\` only posts from those pages are taken
    (403 \`ORIGIN_NOT_ALLOWED\` otherwise, a post without \`Origin\` too); \`honeypotField\` names a hidden field
    people leave empty: a post that fills it is answered as recorded and records nothing. Under \`npm start\` (not
    deployed), redirect URLs and origins may also be \`http://localhost\`, \`http://127.0.0.1\` or \`http://[::1]\`,
    with any port, to try a form from a local page.
  `,
  requestExample: { name: 'Website quote form', source: 'WEBFORM', redirectUrl: 'https://harbourcityplumbing.com.au/thanks', allowedOrigins: ['https://harbourcityplumbing.com.au'] },
  response: InboundEndpointCreated,
  // Its secret, and Retell's key when sent, are sealed in the item.
  capabilities: [sealsSecrets],
});

export const listInboundEndpoints = endpoint.list({ summary: 'List inbound endpoints, newest first', description: 'Never the tokens or secrets.' });

export const getInboundEndpoint = endpoint.get({ summary: 'Read an inbound endpoint', description: 'As the list shows it: never its token or secret (the token is stored only hashed; rotate to get new ones).' });

export const updateInboundEndpoint = endpoint.update({
  summary: 'Change an inbound endpoint’s name, source, format, fieldMap, redirects, allowed origins or spam settings',
  description: prose`
    Fields left out keep their values; \`fieldMap: null\`, \`redirectUrl: null\`, \`errorRedirectUrl: null\` and
    \`honeypotField: null\` remove them, \`allowedOrigins: []\` ends CORS (and, with \`enforceOrigin\`, refuses every
    post). The URL, its token and the signing secret stay as they are, so forms already posting to it keep working;
    posts after the change are read with the new settings. \`format\` \`retell\` or \`vapi\` is only for source CALL
    (400 naming the field otherwise); \`retell\` needs a \`platformSecret\` (sent now or kept from before), which a
    change to another format drops.
  `,
  // A change of source, format or platformSecret reads the endpoint first: the rule spans stored and sent fields.
  dynamodb: ['GetItem', 'UpdateItem'],
  // A platformSecret sent is sealed in the item.
  capabilities: [sealsSecrets],
  requestExample: { name: 'Website quote form', fieldMap: { your_email: 'email', mobile: 'phone', full_name: 'name' } },
});

export const deleteInboundEndpoint = endpoint.delete({ summary: 'Delete an inbound endpoint', description: 'Its URL answers 401 from then on.' });

export const rotateInboundEndpoint = endpoint.action('rotate', {
  operationId: 'rotateInboundEndpoint',
  summary: 'Issue a new token and secret for an inbound endpoint',
  description: 'Answers the new `url` and `secret`; the old token and secret stop working at once.',
  dynamodb: ['GetItem', 'UpdateItem'],
  replaces: true,
  // The new secret is sealed in the item.
  capabilities: [sealsSecrets],
  response: InboundEndpointCreated,
});

/** What the answer to a browser on one of the endpoint's allowedOrigins carries; other origins get neither. */
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': 'The request’s Origin, when the endpoint lists it in `allowedOrigins`; absent otherwise.',
  Vary: '`Origin`, with Access-Control-Allow-Origin.',
};

/** A sender's own id for a post, in a header: kept as the inquiry's externalInquiryId, so bounded as it is. */
const SENDER_ID = { type: 'string', minLength: 1, maxLength: 200 };

/** The headers an inbound post is authenticated, deduplicated or answered by. */
const INBOUND_HEADERS = {
  'Idempotency-Key': {
    description: 'The sender’s own id for this post, when the body has no `externalInquiryId`: the same id again to this endpoint, from a sender with the same email or phone, answers 200 with the first inquiry’s ids and records nothing.',
    schema: SENDER_ID,
  },
  'webhook-id': { description: 'Standard Webhooks: the message id, part of what is signed. Also the sender’s id for the post, as Idempotency-Key is.', schema: SENDER_ID },
  'webhook-timestamp': { description: 'Standard Webhooks: when the post was signed, in Unix seconds; more than 5 minutes from the API’s clock answers 401.', schema: { type: 'string', pattern: '^[0-9]{1,12}$' } },
  'webhook-signature': {
    description: 'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` keyed with the endpoint’s secret, several separated by spaces. With the three Standard Webhooks headers the URL needs no `token`.',
    schema: { type: 'string', maxLength: 2000 },
  },
  'x-retell-signature': {
    description: 'For format retell: `v=<unix ms>,d=<hex HMAC-SHA256 of the body followed by that timestamp>`, keyed with the Retell API key (the endpoint’s platformSecret), within 5 minutes either way.',
    schema: { type: 'string', pattern: '^v=[0-9]{1,16},d=[0-9a-f]{64}$' },
  },
  'x-vapi-secret': { description: 'For format vapi: the endpoint’s secret, as Vapi sends its server secret.', schema: { type: 'string', maxLength: 500 } },
  // Vapi's `Authorization: Bearer <secret>` is in the description only: OpenAPI tools ignore a header parameter of that name.
  Origin: {
    description: 'A browser page’s origin (CORS): when the endpoint lists it in `allowedOrigins`, the answer carries Access-Control-Allow-Origin and Vary: Origin.',
    schema: { type: 'string', maxLength: 2048 },
  },
};

export const receiveInbound = defineRoute({
  operationId: 'receiveInbound',
  method: 'POST',
  path: '/v1/inbound/{inboundEndpointId}',
  summary: 'Post an inquiry to an inbound endpoint (no API key)',
  description: prose`
    Authenticated by the endpoint URL's \`token\`, or by Standard Webhooks headers (\`webhook-id\`,
    \`webhook-timestamp\` within 5 minutes, \`webhook-signature\`) signed with the endpoint's secret; anything else
    answers 401 and records nothing. The body is \`application/json\`, or what an HTML form posts:
    \`application/x-www-form-urlencoded\` or \`multipart/form-data\`, at most ${MAX_INBOUND_BYTES / 1024} KB; a
    multipart form may carry files up to ${MAX_FORM_WITH_FILES_BYTES / 1024 / 1024} MB in all, which are dropped: the
    rest of the form is recorded, with the files' names in the WEBFORM record's \`droppedFiles\`. A form post to an
    endpoint with \`redirectUrl\` is answered 303 to it with \`inquiryId=<id>\` added to its query, so the visitor
    lands on the site's thank-you page; refused (400, 403, 413, 415), it is answered 303 to \`errorRedirectUrl\` with
    \`error=<code>\` when the endpoint has one. An endpoint with \`enforceOrigin\` refuses a post whose \`Origin\` is
    not one of its \`allowedOrigins\`, or that has none (403 \`ORIGIN_NOT_ALLOWED\`, nothing recorded). A post filling
    the endpoint's \`honeypotField\` is answered as if recorded (201, or 303 to \`redirectUrl\` with an \`inquiryId\`
    that names nothing) and records nothing. A 401 is never redirected. JSON posts are answered JSON. A browser page
    on one of the endpoint's \`allowedOrigins\` may post JSON (CORS): the preflight \`OPTIONS\` of this URL, with its
    token, answers 204 with the CORS headers, and the answer to the post carries \`Access-Control-Allow-Origin\` and
    \`Vary: Origin\`; any other origin gets no CORS headers. A WEBFORM endpoint keeps every field and finds the lead
    from email, phone and name; an EMAIL endpoint takes a parsed email (from, to, subject, text or html); CALL and
    CHATBOT take \`{lead, data, summary?, tag?}\` as POST /v1/inquiries does. A CALL endpoint of \`format\` \`retell\`
    or \`vapi\` takes that platform's webhook exactly as it sends it, JSON up to
    ${MAX_CALL_PLATFORM_BYTES / 1024 / 1024} MB, proved by the platform's own scheme only (a token or Standard
    Webhooks signature is neither needed nor enough): Retell's \`x-retell-signature\` (\`v=<unix ms>,d=<hex
    HMAC-SHA256 of the body followed by that timestamp, keyed with the Retell API key>\`, within 5 minutes either
    way), or Vapi's credential holding the endpoint's secret: \`Authorization: Bearer <secret>\` (its Bearer Token
    credential, as Vapi sends it by default) or \`x-vapi-secret: <secret>\` (its legacy server secret; when sent, it
    alone is checked). Retell's \`call_analyzed\` (its event in \`event\` or \`event_type\`) and Vapi's
    \`end-of-call-report\` record a CALL inquiry (transcript, summary, recording, direction, duration, start, end, who
    hung up, the lead's number, and the platform's analysis: sentiment, success, extracted data), the lead found by
    the caller's phone (the called number on an outbound call) or created; the same call id again answers 200 with the
    first inquiry's ids and records nothing. Any other event, and a call that never connected, answers 204 and records
    nothing; a payload without the call id or the lead's phone, or with a field out of range, answers 400 naming the
    platform's field (\`call.start_timestamp\`, \`message.startedAt\`). The same sender id again
    (\`externalInquiryId\`, or the \`webhook-id\` or \`Idempotency-Key\` header) to the same endpoint, from a sender
    with the same email or phone, answers 200 with the first inquiry's ids alone (\`{inquiry: {id, leadId}, created:
    false}\`, nothing it recorded); from another sender it is recorded as an inquiry of its own, so the URL never
    answers with someone else's. Query parameters other than \`token\` are ignored. Every post (a wrong token's too)
    counts against the organization's inbound quota, apart from its API keys': beyond it, 429 \`RATE_LIMITED\` with
    \`Retry-After\`. One client address may post ${INBOUND_SOURCE_SHARE.limit} times a UTC day to the organization's
    URLs (a voice platform's endpoint is not counted); past that its posts are refused before they are metered, with
    the same 401, until 00:00 UTC.
  `,
  tag: 'Inbound',
  auth: 'none',
  // No API key, yet metered: the gateway's inbound authorizer names the endpoint's organization's inbound usage identifier.
  authorizer: 'inboundEndpoint',
  // The endpoint, in the organization its authorizer found it in; then what POST /v1/inquiries does.
  dynamodb: ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'],
  // Everything it reads and writes is the organization's: all of it through that organization's session, none by its own role.
  organizationSession: 'authorizer',
  ownKeys: [],
  // A signature or credential is checked with the endpoint's secret, or Retell's key, opened.
  capabilities: [opensSecrets],
  throttle: INBOUND_ROUTE_THROTTLE,
  status: 201,
  request: { path: InboundEndpointIdPath, query: InboundQuery },
  // The function reads the body itself, by the endpoint's source and format: the document describes what it takes, and
  // so does the response, both given in ./resource.ts (`described`): the settings routes' functions never parse them.
  requestBodies: describedByResource(),
  // A voice platform's call report, or a form with files: the function holds each kind of body to its own limit.
  maxBodyBytes: Math.max(MAX_CALL_PLATFORM_BYTES, MAX_FORM_WITH_FILES_BYTES),
  requestHeaders: INBOUND_HEADERS,
  requestExample: { email: 'mia.wong@example.com', name: 'Mia Wong', phone: '0412 345 678', message: 'The hot water system is leaking under the laundry.' },
  response: describedByResource<typeof IngestedInquiry>(),
  errors: [400, 401, 403, 413, 415],
  // Browsers on the endpoint's allowedOrigins post JSON from their pages: the function also answers the preflight.
  preflight: true,
  responses: {
    200: {
      description: prose`
        The sender’s id (or, from a voice platform, the call id) was seen before, from a sender with the same email
        or phone: nothing is recorded again, and the answer is the first inquiry’s ids alone, \`{inquiry: {id,
        leadId}, created: false}\`, never what it recorded (its summary, transcript or the lead’s name), since
        anyone who has the page may post.
      `,
      schema: InboundRepeat,
      headers: CORS_HEADERS,
    },
    201: { description: 'The inquiry was recorded.', headers: CORS_HEADERS },
    303: {
      description: prose`
        A form post (urlencoded or multipart) to an endpoint with \`redirectUrl\`: recorded (or seen before), and the
        visitor is sent to \`redirectUrl\` with \`inquiryId=<id>\` added to its query, and nothing else (a repeat
        too). Refused with 400, 403, 413 or 415 and the endpoint has \`errorRedirectUrl\`: sent there with
        \`error=<code>\` (\`VALIDATION_ERROR\`, \`INVALID_MULTIPART\`, \`ORIGIN_NOT_ALLOWED\`, \`PAYLOAD_TOO_LARGE\`,
        \`UNSUPPORTED_MEDIA_TYPE\`). No body.
      `,
      empty: true,
      headers: { Location: 'The redirectUrl with `inquiryId` added, or the errorRedirectUrl with `error` added.', ...CORS_HEADERS },
    },
    415: { description: 'A body that is not JSON, urlencoded or multipart/form-data: nothing is recorded. `UNSUPPORTED_MEDIA_TYPE`.' },
    403: { description: 'The endpoint has `enforceOrigin` and the post’s `Origin` is not one of its `allowedOrigins`, or it has none: nothing is recorded. `ORIGIN_NOT_ALLOWED`.' },
    204: { description: 'A `retell` or `vapi` endpoint’s event other than the post-call one (Retell `call_started`, `call_ended`; Vapi `status-update`, `transcript`, …), or a call that never connected: acknowledged, nothing recorded. No body.', empty: true },
    401: { description: prose`
      Neither the endpoint’s token nor a valid Standard Webhooks signature (for a \`retell\` or \`vapi\` endpoint: not
      that platform’s valid signature or secret), the endpoint does not exist, or the client address has posted its
      ${INBOUND_SOURCE_SHARE.limit} of the UTC day to the organization: nothing is recorded.
    ` },
  },
});

export const inboundEndpointRoutes = [createInboundEndpoint, listInboundEndpoints, getInboundEndpoint, updateInboundEndpoint, deleteInboundEndpoint, rotateInboundEndpoint, receiveInbound];
