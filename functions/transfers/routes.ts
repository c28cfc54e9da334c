import { ResolvedTransferResponse, ResolveTransferBody, TransferIdPath } from './schema';
import { transfers } from './collection';
import { actionRow } from '#shared/routes/rows';
import { prose } from '#shared/prose';

export const resolveTransfer = actionRow({
  operationId: 'resolveTransfer',
  path: '/v1/transfers/{transferId}/resolve',
  summary: 'Where to hand a call over now, with its summary',
  description: prose`
    For a voice agent about to transfer a call: the rule’s destination, its type and method, and its
    \`summaryFormat\` filled with the call’s \`name\`, \`topic\` and \`summary\`. The rule and the organization’s
    hours are read together, and nothing is written. A disabled rule answers 409 TRANSFER_DISABLED; a rule that
    keeps business hours, while the business is closed, 409 OUTSIDE_BUSINESS_HOURS with \`nextOpenAt\` in
    \`error.details\`. Another organization’s rule answers 404.
  `,
  tag: 'Transfers',
  dynamodb: ['GetItem'],
  request: { path: TransferIdPath, body: ResolveTransferBody },
  requestExample: { name: 'Olivia Nguyen', topic: 'a burst pipe', summary: 'Water is coming through the kitchen ceiling; the main is turned off.' },
  response: ResolvedTransferResponse,
  errors: [409],
});

const { create, list, get, update, delete: remove } = transfers.route;

/** In the reference's order: the create first, and the resolve after the five CRUD routes. */
export const transferRoutes = [create, list, get, update, remove, resolveTransfer];
