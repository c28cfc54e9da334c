import type { RouteDefinition } from '#shared/routes/route';
import { actionRow, createRow, getRow, listRow } from '#shared/routes/rows';
import { automationStepSender } from '../engine/capability';
import { automationRun } from './examples';
import { AutomationIdPath, EnrolBody, LeadRunsPath, ListLeadRunsQuery, ListRunsQuery, ListStoppedRunsQuery, PreviewResponse, RunIdPath, RunPage, RunResponse } from './schema';
import { prose } from '#shared/prose';

const TAG = 'Automations';
const ENROL_EXAMPLE = { leadId: automationRun.leadId };

export const listAutomationRuns = listRow({
  operationId: 'listAutomationRuns',
  path: '/v1/automations/{automationId}/runs',
  summary: 'List an automation’s runs, newest first',
  description: prose`
    Every run of the automation (each lead it was started for, by an event or by hand), newest first, or those in one
    \`status\`; \`updatedSince\` reads the runs changed since, oldest change first, a run changing with each of its
    steps. Each run shows every step: when it was due, when it ran and what it did. \`expand=lead\` adds each run’s
    lead (\`lead\`), so a list shows whom each run is for in one request.
  `,
  tag: TAG,
  // BatchGetItem: the page's leads, with expand=lead.
  dynamodb: ['Query', 'GetItem', 'BatchGetItem'],
  // gsi1: the automation's runs; gsi6: their change log (updatedSince).
  indexes: ['gsi1', 'gsi6'],
  request: { path: AutomationIdPath, query: ListRunsQuery },
  response: RunPage,
});

export const enrolAutomationLead = createRow({
  operationId: 'enrolAutomationLead',
  path: '/v1/automations/{automationId}/runs',
  summary: 'Enrol a lead in an automation by hand',
  description: prose`
    Starts a run of the automation’s current version for the lead, now, as its trigger would: its first steps run at
    once, its waits are scheduled. An automation on an \`appointment.*\` trigger needs the lead’s \`appointmentId\`; one
    whose runs only start from their events (\`call.missed\`, \`inquiry.created\`, \`sms.received\`) answers 409
    NOT_ENROLLABLE, and a disabled automation 409 AUTOMATION_DISABLED. Each request starts a new run (send an
    Idempotency-Key to retry safely).
  `,
  tag: TAG,
  dynamodb: ['GetItem', 'Query', 'PutItem'],
  // The run's first step is queued for the runner.
  capabilities: [automationStepSender],
  request: { path: AutomationIdPath, body: EnrolBody },
  requestExample: ENROL_EXAMPLE,
  response: RunResponse,
  errors: [404, 409],
});

export const previewAutomation = actionRow({
  operationId: 'previewAutomation',
  path: '/v1/automations/{automationId}/preview',
  summary: 'Preview an automation for a lead: every step rendered, nothing sent',
  description:
    'What a run of the automation’s current version would do were the lead enrolled now: each step’s due time, each SMS rendered for the lead (its recipient, text and length), the steps quiet hours would defer and those that would be skipped or fail. Nothing is sent and nothing is written.',
  tag: TAG,
  dynamodb: ['GetItem', 'Query'],
  request: { path: AutomationIdPath, body: EnrolBody },
  requestExample: ENROL_EXAMPLE,
  response: PreviewResponse,
  errors: [404],
});

export const getAutomationRun = getRow({
  operationId: 'getAutomationRun',
  path: '/v1/automation-runs/{runId}',
  summary: 'Read an automation run',
  description: 'One run: its status, where it stopped or failed and why, when it next moves, and each step’s due time, run time and result. Another organization’s run answers 404.',
  tag: TAG,
  request: { path: RunIdPath },
  response: RunResponse,
});

export const cancelAutomationRun = actionRow({
  operationId: 'cancelAutomationRun',
  path: '/v1/automation-runs/{runId}/cancel',
  summary: 'Cancel an automation run',
  description:
    'Stops the run: `STOPPED` with `stoppedReason: "cancelled"`, its steps not done `CANCELLED`, its waiting schedule deleted; an SMS step under way at that moment records and sends nothing. A run that has ended is answered as it stands.',
  tag: TAG,
  dynamodb: ['GetItem', 'UpdateItem', 'DeleteItem'],
  // The run's schedule is deleted by the runner, from the cleanup message queued here.
  capabilities: [automationStepSender],
  request: { path: RunIdPath },
  response: RunResponse,
});

export const listStoppedAutomationRuns = listRow({
  operationId: 'listStoppedAutomationRuns',
  path: '/v1/automation-runs',
  summary: 'List the runs that stopped, of every automation, newest stop first',
  description: prose`
    The organization’s runs that stopped before their last step (\`status\` STOPPED), whichever automation they are of,
    the latest to stop first; \`stoppedReason\` keeps one reason’s (\`lead.replied\`: the lead answered, and the
    follow-up stopped as it should), \`stoppedSince\` those stopped at or after an instant. A stopped run never changes
    again, so \`stoppedSince\` is how a poller reads what stopped since its last read: the list takes no
    \`updatedSince\`. Runs that are still going, completed or failed are listed per automation
    (GET /v1/automations/{automationId}/runs). \`expand=lead\` adds each run’s lead (\`lead\`).
  `,
  tag: TAG,
  // BatchGetItem: the page's leads, with expand=lead.
  dynamodb: ['Query', 'BatchGetItem'],
  // gsi2: every stopped run; gsi3: one reason's.
  indexes: ['gsi2', 'gsi3'],
  request: { query: ListStoppedRunsQuery },
  response: RunPage,
});

export const listLeadAutomationRuns = listRow({
  operationId: 'listLeadAutomationRuns',
  path: '/v1/leads/{leadId}/automation-runs',
  summary: 'List a lead’s automation runs, of every automation, newest first',
  description: prose`
    Every run started for the lead, whichever automation it is of and whatever its status, newest first, each with its
    steps and, for a STOPPED one, why it stopped. An unknown lead, or another organization’s, answers 404. A run’s
    changes are read per automation (\`updatedSince\` on GET /v1/automations/{automationId}/runs): this list takes
    none.
  `,
  tag: TAG,
  // gsi4: the lead's runs (and a COUNT of them when they pass a page); GetItem: the lead, for its 404.
  dynamodb: ['Query', 'GetItem'],
  indexes: ['gsi4'],
  request: { path: LeadRunsPath, query: ListLeadRunsQuery },
  response: RunPage,
});

export const runRoutes: RouteDefinition[] = [listAutomationRuns, enrolAutomationLead, previewAutomation, getAutomationRun, cancelAutomationRun, listStoppedAutomationRuns, listLeadAutomationRuns];
