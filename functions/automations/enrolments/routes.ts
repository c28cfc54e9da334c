import type { RouteDefinition } from '#shared/routes/route';
import { defineRoute } from '#shared/routes/route';
import { prose } from '#shared/prose';
import { notQueued } from '#shared/schema';
import { AutomationIdPath } from '../runs/schema';
import { enrolmentQueueSender } from './queue';
import { EnrolmentPath, EnrolmentResponse, StartEnrolmentBody } from './schema';

const TAG = 'Automations';

export const startAutomationEnrolment = defineRoute({
  operationId: 'startAutomationEnrolment',
  method: 'POST',
  path: '/v1/automations/{automationId}/enrolments',
  summary: 'Enrol every lead of a status in an automation, in the background',
  description: prose`
    Starts a run of the automation for each lead in \`leadStatus\` (every QUOTED lead in a follow-up, say), as
    enrolling each by hand would. It runs in the background: the answer is 202 with the enrolment QUEUED; read it back
    with \`GET /v1/automations/{automationId}/enrolments/{enrolmentId}\` to follow its \`progress\`. The leads are those
    in the status as the enrolment reaches them. The automation must be on (409 AUTOMATION_DISABLED) and take leads by
    hand (409 NOT_ENROLLABLE, as do the \`appointment.*\` triggers, whose runs each need their appointment).
  `,
  tag: TAG,
  // The automation read and checked; the enrolment's item put (and marked FAILED when the queue refuses it).
  dynamodb: ['GetItem', 'PutItem', 'UpdateItem'],
  capabilities: [enrolmentQueueSender],
  status: 202,
  request: { path: AutomationIdPath, body: StartEnrolmentBody },
  requestExample: { leadStatus: 'QUOTED' },
  response: EnrolmentResponse,
  errors: [404, 409],
  responses: {
    409: { description: 'AUTOMATION_DISABLED: the automation is off. NOT_ENROLLABLE: its runs start only from their events, or each needs its appointment.' },
    503: notQueued('enrolment'),
  },
});

export const getAutomationEnrolment = defineRoute({
  operationId: 'getAutomationEnrolment',
  method: 'GET',
  path: '/v1/automations/{automationId}/enrolments/{enrolmentId}',
  summary: 'Follow a bulk enrolment',
  description: prose`
    An enrolment started with \`POST /v1/automations/{automationId}/enrolments\`: its \`status\`, its \`progress\`
    (leads gone through, of those counted in the status) and the runs it started (\`enrolled\`). Kept 30 days. Another
    automation’s, another organization’s or an unknown id answers 404.
  `,
  tag: TAG,
  dynamodb: ['GetItem'],
  status: 200,
  request: { path: EnrolmentPath },
  response: EnrolmentResponse,
  errors: [400, 404],
});

export const enrolmentRoutes: RouteDefinition[] = [startAutomationEnrolment, getAutomationEnrolment];
