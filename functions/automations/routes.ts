import { errorEnvelope } from '#shared/http/envelope';
import * as schema from './schema';
import { recordRows } from '#shared/routes/record-rows';
import { readRow } from '#shared/routes/rows';
import { LIMITS } from './catalog';
import { automationRequest } from './examples';
import {
  AutomationTemplateList,
  AutomationWriteResponse,
  } from './schema';
import { prose } from '#shared/prose';
import { sealsSecrets } from '#shared/sealing-key';

const automationRows = recordRows(schema, { tag: 'Automations', names: { one: 'Automation', many: 'Automations' }, path: '/v1/automations', changeLog: true });

const CHECKS = prose`
  The trigger’s filter may name only its fields (\`trigger.filter.tag\`), with values of their lists; a wait lasts 1
  minute to 365 days; \`before\` counts back only from a time the trigger’s record has; a template names only variables
  its trigger supplies, and gives a fallback to one that may be empty (\`{{lead.firstName|there}}\`); a
  \`notify_member\` step names a member of the organization who has a phone; a \`webhook\` step’s URL must not point at
  a private, loopback or link-local address. A text may hold a part for the owner to write, \`[[…]]\` (a recipe’s
  \`[[your review page link]]\`): the automation is saved, but cannot be on while one is left, and an \`isEnabled\` of
  true then answers 400 naming the step’s \`template\`. Each refusal is a 400 naming the field (\`steps.2.duration\`).
`;

export const createAutomation = automationRows.create({
  summary: 'Create an automation, from scratch or from a recipe',
  description: prose`
    An automation runs its steps (texts, notes, status moves, webhooks, waits) for each event of its trigger. \`name\`,
    \`trigger\` and \`steps\` are required, unless \`fromTemplate\` names a recipe (GET /v1/automation-templates): the
    recipe’s fields are taken, each replaced whole by the same field of the body, and the result checked as any create
    (a recipe with a part to fill in is made off).
    ${CHECKS} An organization has at most ${LIMITS.automationsPerOrganization} automations: another answers 409
    LIMIT_REACHED. The first write that gives an automation a \`webhook\` step answers \`signingSecret\`, shown only
    then.
  `,
  // GetItem: a notify_member step's member, read to check it has a phone.
  dynamodb: ['GetItem', 'UpdateItem', 'PutItem'],
  // A webhook step's signing secret is sealed in the automation's items (./signing-secret.ts).
  capabilities: [sealsSecrets],
  requestExample: automationRequest,
  response: AutomationWriteResponse,
  errors: [409],
  responses: { 409: { examples: { LimitReached: errorEnvelope(409, `An organization has at most ${LIMITS.automationsPerOrganization} automations; delete one first`, 'LIMIT_REACHED') } } },
});

export const listAutomations = automationRows.list({
  summary: 'List automations, newest first',
  description: 'Pages through the organization’s automations, newest first, with an exact `totalCount`; `updatedSince` reads those changed since.',
});

export const getAutomation = automationRows.get({
  summary: 'Read an automation',
  description: 'One automation of the organization, at its current `version`. Another organization’s automation, or one deleted, answers 404.',
});

export const updateAutomation = automationRows.update({
  summary: 'Change any subset of an automation’s fields',
  description: `Fields left out keep their values; \`steps\`, \`trigger\` and \`quietHours\` are replaced whole. Every change is a new \`version\`: runs already started follow the version they started with. ${CHECKS} Disabling stops new runs; runs under way go on.`,
  // GetItem: the automation, and a notify_member step's member. PutItem and DeleteItem: the automation, its new version and its trigger entry.
  dynamodb: ['GetItem', 'PutItem', 'DeleteItem'],
  // The first webhook step's secret is sealed; one kept from an item written before sealing is sealed by the next change.
  capabilities: [sealsSecrets],
  requestExample: { isEnabled: false },
  response: AutomationWriteResponse,
});

export const deleteAutomation = automationRows.delete({
  summary: 'Delete an automation',
  description: 'Removes the automation, so no event starts it again, and lowers the count in one transaction; its runs under way stop (`automation.deleted`). An automation already gone answers 404.',
  dynamodb: ['GetItem', 'DeleteItem', 'UpdateItem', 'PutItem'],
});

export const listAutomationTemplates = readRow({
  operationId: 'listAutomationTemplates',
  path: '/v1/automation-templates',
  summary: 'List the recipes an automation can start from',
  description: prose`
    The built-in recipes (missed-call text-back, web-form instant reply, appointment reminders, quote follow-up, review
    request), each with the automation it makes; \`POST /v1/automations\` with \`fromTemplate\` makes one. The same for
    every organization; read from the deployed code, with no DynamoDB call.
  `,
  tag: 'Automations',
  dynamodb: [],
  request: {},
  response: AutomationTemplateList,
});

export const automationRoutes = [createAutomation, listAutomations, getAutomation, updateAutomation, deleteAutomation, listAutomationTemplates];
