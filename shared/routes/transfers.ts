import { CreateTransferBody, TransferIdPath, TransferResponse, UpdateTransferBody } from '../schemas/transfers';
import { defineRoute } from './route';

export const createTransfer = defineRoute({
  operationId: 'createTransfer',
  method: 'POST',
  path: '/v1/transfers',
  handler: 'transfers/create',
  summary: 'Create a call transfer rule',
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
  path: '/v1/transfers/{transferId}',
  handler: 'transfers/update',
  summary: 'Change any subset of a transfer rule’s fields',
  tag: 'Transfers',
  dynamodb: ['GetItem', 'PutItem', 'DeleteItem', 'ConditionCheckItem'],
  status: 200,
  request: { path: TransferIdPath, body: UpdateTransferBody },
  response: TransferResponse,
  errors: [400, 404, 409],
});

export const transferRoutes = [createTransfer, updateTransfer];
