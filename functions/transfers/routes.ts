import { CreateTransferBody, ResolvedTransferResponse, ResolveTransferBody, TransferDeleted, TransferIdPath, TransferListQuery, TransferPage, TransferResponse, UpdateTransferBody } from './schema';
import { defineRoute } from '../../shared/routes/route';

export const createTransfer = defineRoute({
  operationId: 'createTransfer',
  method: 'POST',
  path: '/v1/transfers',
  summary: 'Create a call transfer rule',
  description: 'When and where the AI receptionist hands a call over: a department, a member (`destination` the member’s id, of a member of the organization) or a phone number (a valid number of its plan: E.164, or the national form of the organization’s `country`, stored in E.164). A label already used in the organization answers 409; a `scenarioId` must be a scenario of the organization.',
  tag: 'Transfers',
  // GetItem: the member a MEMBER destination names.
  dynamodb: ['UpdateItem', 'PutItem', 'GetItem'],
  status: 201,
  request: { body: CreateTransferBody },
  response: TransferResponse,
  errors: [400, 409],
});

export const updateTransfer = defineRoute({
  operationId: 'updateTransfer',
  method: 'PUT',
  alsoPatch: true,
  path: '/v1/transfers/{transferId}',
  summary: 'Change any subset of a transfer rule’s fields',
  description: 'Fields left out keep their values; the merged rule is checked again (a PHONE_NUMBER destination must be a valid number of its plan, read as on create; a changed MEMBER destination must be the id of a member of the organization). A label in use answers 409. Concurrent updates are applied one after another, never lost.',
  tag: 'Transfers',
  dynamodb: ['GetItem', 'PutItem', 'DeleteItem', 'UpdateItem'],
  status: 200,
  request: { path: TransferIdPath, body: UpdateTransferBody },
  response: TransferResponse,
  errors: [400, 404, 409],
});

export const listTransfers = defineRoute({
  operationId: 'listTransfers',
  method: 'GET',
  path: '/v1/transfers',
  summary: 'List call transfer rules, newest first',
  description:
    'The organization’s transfer rules, filtered by `isEnabled`, by `scenarioId` (a scenario that is not one of the organization’s lists none) and by `availableNow`: with true, the enabled rules a call can be handed to now (within the organization’s business hours, or any time with `settings.ignore_business_hours`; hours never set hold no rule back), each with its `conditions` for the agent to judge; with false, the others. `availableNow` reads the organization’s hours first. `totalCount` counts every rule that passes the filters.',
  tag: 'Transfers',
  // GetItem: the organization's hours, for availableNow.
  dynamodb: ['Query', 'GetItem'],
  // gsi6: the change log read with updatedSince.
  indexes: ['gsi6'],
  status: 200,
  request: { query: TransferListQuery },
  response: TransferPage,
  errors: [400],
});

export const getTransfer = defineRoute({
  operationId: 'getTransfer',
  method: 'GET',
  path: '/v1/transfers/{transferId}',
  summary: 'Read a call transfer rule',
  description: 'One transfer rule. Another organization’s rule answers 404.',
  tag: 'Transfers',
  dynamodb: ['GetItem'],
  status: 200,
  request: { path: TransferIdPath },
  response: TransferResponse,
  errors: [400, 404],
});

export const deleteTransfer = defineRoute({
  operationId: 'deleteTransfer',
  method: 'DELETE',
  path: '/v1/transfers/{transferId}',
  summary: 'Delete a call transfer rule',
  description: 'Removes the rule; its label is free for another rule at once.',
  tag: 'Transfers',
  dynamodb: ['GetItem', 'DeleteItem', 'UpdateItem', 'PutItem'],
  status: 200,
  request: { path: TransferIdPath },
  response: TransferDeleted,
  errors: [400, 404],
});

export const resolveTransfer = defineRoute({
  operationId: 'resolveTransfer',
  method: 'POST',
  path: '/v1/transfers/{transferId}/resolve',
  summary: 'Where to hand a call over now, with its summary',
  description:
    'For a voice agent about to transfer a call: the rule’s destination, its type and method, and its `summaryFormat` filled with the call’s `name`, `topic` and `summary`. The rule and the organization’s hours are read together, and nothing is written. A disabled rule answers 409 TRANSFER_DISABLED; a rule that keeps business hours, while the business is closed, 409 OUTSIDE_BUSINESS_HOURS with `nextOpenAt` in `error.details`. Another organization’s rule answers 404.',
  tag: 'Transfers',
  dynamodb: ['GetItem'],
  status: 200,
  request: { path: TransferIdPath, body: ResolveTransferBody },
  requestExample: { name: 'Olivia Nguyen', topic: 'a burst pipe', summary: 'Water is coming through the kitchen ceiling; the main is turned off.' },
  response: ResolvedTransferResponse,
  errors: [400, 404, 409],
});

export const transferRoutes = [createTransfer, listTransfers, getTransfer, updateTransfer, deleteTransfer, resolveTransfer];
