import * as v from 'valibot';
import { ApiError, ValidationError } from '#shared/errors';
import type { Page } from '#shared/pagination';
import { getOrganizationHours } from '../organization/store';
import { getMember } from '../organization/member-store';
import { now } from '#shared/ids';
import { crudStore, type CrudRules } from '#shared/crud/store';
import { listTransfersPage, scenarioWrites } from './store';
import { toE164, type CountryCode } from '#shared/phone';
import { countryToRead } from '../leads/phones';
import { transfers } from './collection';
import { ResolvedTransfer, Transfer, type CreateTransferBody, type ResolveTransferBody, type TransferListQuery } from './schema';

/**
 * Rules across fields, checked on the merged transfer so a partial update cannot break them; the
 * schema puts the fields in documented order.
 */
async function checked(fields: Partial<Transfer>, country: CountryCode | undefined): Promise<Transfer> {
  const transfer = v.parse(Transfer, fields);
  if (transfer.destinationType !== 'PHONE_NUMBER') return transfer;
  // A number as people type it, read in the organization's country, kept in E.164 as a call is dialled.
  const destination = await toE164(transfer.destination, country);
  if (!destination) {
    const message = "destination must be a valid phone number when destinationType is PHONE_NUMBER: with its country code (+61298765432), or in the national form of the organization's country";
    throw new ValidationError([{ path: 'destination', message }]);
  }
  return { ...transfer, destination };
}

const notAMember = (destination: string) =>
  new ValidationError([{ path: 'destination', message: `destination ${destination} is not the id of a member of the organization (GET /v1/organization/members), as destinationType MEMBER needs` }]);

/** A MEMBER destination is a member's id, of a member the organization has when the rule is written. */
async function checkMemberDestination(organizationId: string, transfer: Transfer): Promise<void> {
  if (transfer.destinationType !== 'MEMBER') return;
  const memberId = /^[1-9][0-9]{0,9}$/.test(transfer.destination) ? Number(transfer.destination) : undefined;
  if (memberId === undefined || !(await getMember(organizationId, memberId))) throw notAMember(transfer.destination);
}

/**
 * The transfer's rules for its CRUD store: the merged rule checked (a number read in the organization's country, a
 * MEMBER destination that is a member when the rule is written or redirected), its name its label unless given, its
 * scenario linked in its transaction, and the list's filters.
 */
export const transferRules: CrudRules<Transfer, TransferListQuery> = {
  async check(organizationId, next, input, current) {
    const transfer = await checked({ ...next, name: next.name ?? next.label }, await countryToRead(organizationId, input.destination));
    // A rule whose member has left keeps working for changes that leave its destination alone.
    const redirected = !current || transfer.destination !== current.destination || transfer.destinationType !== current.destinationType;
    if (redirected) await checkMemberDestination(organizationId, transfer);
    return transfer;
  },
  writes: scenarioWrites,
  list: (organizationId, query) => listTransfers(organizationId, query),
};

const store = crudStore(transfers, transferRules);

/** Checked before an id is reserved, so a refused request reserves none. */
export const createTransfer = (organizationId: string, body: CreateTransferBody, at = now()): Promise<Transfer> => store.create(organizationId, body, at);

export const readTransfer = (organizationId: string, transferId: number): Promise<Transfer> => store.get(organizationId, transferId);

/** Whether the organization takes calls now by its hours: unknown hours (never set) do not hold a transfer back. */
async function openNow(organizationId: string): Promise<{ isOpen: boolean; nextOpenAt: string | null }> {
  const { isOpenNow, nextOpenAt } = await getOrganizationHours(organizationId);
  return { isOpen: isOpenNow !== false, nextOpenAt };
}

/** The rules, filtered; with `availableNow`, the organization's hours are read first (one more round trip). */
export async function listTransfers(organizationId: string, query: TransferListQuery): Promise<Page<Transfer>> {
  const usableNow = query.availableNow === undefined ? true : (await openNow(organizationId)).isOpen;
  return listTransfersPage(organizationId, query, usableNow);
}

/**
 * Where the receptionist hands this call over, and what it says: the rule and the organization's hours read together.
 * A disabled rule answers 409 TRANSFER_DISABLED; a rule that keeps business hours, outside them, 409
 * OUTSIDE_BUSINESS_HOURS naming when the business next opens.
 */
export async function resolveTransfer(organizationId: string, transferId: number, call: ResolveTransferBody): Promise<v.InferOutput<typeof ResolvedTransfer>> {
  const [transfer, hours] = await Promise.all([readTransfer(organizationId, transferId), openNow(organizationId)]);
  if (!transfer.isEnabled) throw new ApiError(409, 'The transfer rule is disabled', 'TRANSFER_DISABLED');
  if (!transfer.settings.ignore_business_hours && !hours.isOpen) {
    const next = hours.nextOpenAt ? `; the business next opens at ${hours.nextOpenAt}` : '';
    throw new ApiError(409, `The business is closed now${next}`, 'OUTSIDE_BUSINESS_HOURS', hours.nextOpenAt ? [{ path: 'nextOpenAt', message: hours.nextOpenAt }] : undefined);
  }
  const summary = transfer.summaryFormat.replace(/\{(name|topic|summary)\}/g, (_, placeholder: keyof ResolveTransferBody) => call[placeholder]);
  return { transferId: transfer.id, destination: transfer.destination, destinationType: transfer.destinationType, method: transfer.method, summary };
}
