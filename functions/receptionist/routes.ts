import { defineRoute } from '#shared/routes/route';
import { readRow } from '#shared/routes/rows';
import { CallerPath, CallerResponse } from './schema';
import { CONTEXT_LIMIT, IF_NONE_MATCH_MAX, ReceptionistContext } from './context-schema';
import { prose } from '#shared/prose';

export const lookupCaller = defineRoute({
  operationId: 'lookupCaller',
  method: 'GET',
  path: '/v1/callers/{phone}',
  summary: 'Who is calling: the lead with this phone, its open inquiries and upcoming appointments',
  description: prose`
    For a voice agent on a live call: the organization’s lead with this phone (any common form, normalized to
    E.164), its latest inquiries (unread first) and its appointments to come, whether the number opted out of SMS,
    and whether the business is open now (while it is closed, \`nextOpenAt\`: when it next opens). A caller the
    organization does not know answers 200 with \`lead: null\`, not 404: the agent needs the rest. Two DynamoDB
    round trips for an E.164 number (the phone’s claim, then its lead, both read consistently: a lead created this
    second shows); a national form one more, to read the organization’s country.
  `,
  tag: 'Receptionist',
  dynamodb: ['GetItem', 'Query'],
  indexes: ['gsi2', 'gsi3'],
  status: 200,
  request: { path: CallerPath },
  response: CallerResponse,
  errors: [400],
});

export const getReceptionistContext = readRow({
  operationId: 'getReceptionistContext',
  path: '/v1/receptionist/context',
  summary: 'Everything the AI receptionist may say, in one answer',
  description: prose`
    The organization (name, timezone, business hours, whether it is open now), its active services and products (a
    price only where \`isDisclosePrice\`), active FAQs and policies, the active scenarios of active services (with
    their questions and outcomes), and enabled transfer rules, read by one parallel batch of DynamoDB calls. At most
    ${CONTEXT_LIMIT} of each. The answer carries an \`ETag\`: sent back in \`If-None-Match\`, an unchanged context
    answers 304 with no body.
  `,
  tag: 'Receptionist',
  dynamodb: ['GetItem', 'Query'],
  request: {},
  requestHeaders: {
    'If-None-Match': {
      description: 'The ETag of a context read before (or several, comma-separated, or `*`): when it names the current one, the answer is 304 with no body.',
      schema: { type: 'string', maxLength: IF_NONE_MATCH_MAX },
    },
  },
  response: ReceptionistContext,
  responses: {
    200: { description: 'The context, with its ETag.', headers: { ETag: 'A strong validator of this content: send it back in If-None-Match.' } },
    304: { description: 'If-None-Match named the current ETag: the context has not changed. No body.', empty: true, headers: { ETag: 'The same validator.' } },
  },
});

export const receptionistRoutes = [lookupCaller, getReceptionistContext];
