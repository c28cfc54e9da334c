import { CreateTransferBody, TransferIdPath, TransferResponse, UpdateTransferBody } from './schema';
import { defineRoute } from '../../shared/routes/route';

export const createTransfer = defineRoute({
  operationId: 'createTransfer',
  method: 'POST',
  path: '/v1/transfers',
  summary: 'Create a call transfer rule',
  description: 'When and where the AI receptionist hands a call over: a department, a member or a phone number (E.164). A label already used in the organization answers 409; a `scenarioId` must be a scenario of the organization.',
  tag: 'Transfers',
  dynamodb: ['UpdateItem', 'PutItem', 'ConditionCheckItem'],
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
  description: 'Fields left out keep their values; the merged rule is checked again (a PHONE_NUMBER destination must be E.164). A label in use answers 409. Concurrent updates are applied one after another, never lost.',
  tag: 'Transfers',
  dynamodb: ['GetItem', 'PutItem', 'DeleteItem', 'ConditionCheckItem'],
  status: 200,
  request: { path: TransferIdPath, body: UpdateTransferBody },
  response: TransferResponse,
  errors: [400, 404, 409],
});

export const transferRoutes = [createTransfer, updateTransfer];
