import * as v from 'valibot';
import { NonEmptyString } from '#shared/schema';
import { DESTINATION_TYPES, TRANSFER_METHODS, transfers } from './collection';

export { DEFAULT_SUMMARY_FORMAT, DESTINATION_TYPES, SUMMARY_PLACEHOLDERS, TRANSFER_METHODS, TransferListQuery } from './collection';

/** The record and its bodies, as the transfers' CRUD definition (collection.ts) derives them from its fields. */
export const { Record: Transfer, CreateBody: CreateTransferBody, UpdateBody: UpdateTransferBody, Response: TransferResponse, Deleted: TransferDeleted, Page: TransferPage } = transfers.schemas;
export const TransferIdPath = transfers.schemas.IdPath as unknown as v.GenericSchema<{ transferId: string }, { transferId: number }>;
export type Transfer = v.InferOutput<typeof Transfer>;
export type CreateTransferBody = v.InferOutput<typeof CreateTransferBody>;
export type TransferChanges = v.InferOutput<typeof UpdateTransferBody>;

/** What the AI receptionist knows of the call when it hands it over: the rule's summaryFormat is filled with these. */
export const ResolveTransferBody = v.strictObject({
  name: NonEmptyString('name', 200),
  topic: NonEmptyString('topic', 500),
  summary: NonEmptyString('summary', 5000),
});
export type ResolveTransferBody = v.InferOutput<typeof ResolveTransferBody>;

export const ResolvedTransfer = v.object({
  transferId: v.pipe(v.number(), v.integer()),
  destination: v.string(),
  destinationType: v.picklist(DESTINATION_TYPES),
  method: v.picklist(TRANSFER_METHODS),
  /** The rule's summaryFormat with {name}, {topic} and {summary} filled in. */
  summary: v.string(),
});
export const ResolvedTransferResponse = v.object({ transfer: ResolvedTransfer });
