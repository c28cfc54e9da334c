import { defineRoute } from '../../shared/routes/route';
import { CallerPath, CallerResponse } from './schema';

export const lookupCaller = defineRoute({
  operationId: 'lookupCaller',
  method: 'GET',
  path: '/v1/callers/{phone}',
  summary: 'Who is calling: the lead with this phone, its open inquiries and upcoming appointments',
  description:
    'For a voice agent on a live call: the organization’s lead with this phone (any common form, normalized to E.164), its latest inquiries (unread first) and its appointments to come, whether the number opted out of SMS, and whether the business is open now. A caller the organization does not know answers 200 with `lead: null`, not 404: the agent needs the rest. Two DynamoDB round trips for an E.164 number (the lead is read from the phone index, so a lead created this second may not show yet); a national form one more, to read the organization’s country.',
  tag: 'Receptionist',
  dynamodb: ['BatchGetItem', 'GetItem', 'Query'],
  indexes: ['gsi1', 'gsi2', 'gsi3'],
  status: 200,
  request: { path: CallerPath },
  response: CallerResponse,
  errors: [400],
});

export const callerRoutes = [lookupCaller];
