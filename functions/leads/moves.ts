/** What a lead's write moves beside its own item (its counters, its name items) and the checks it is conditioned on. */
import { config } from '#shared/config';
import { counterUpdate } from '#shared/store/counters';
import { changedAny, heldAsRead } from '#shared/store/entity';
import { memberKey } from '#shared/store/keys';
import { deleteItem, requireExisting, type TransactWrite } from '#shared/store/transact';
import type { Condition } from '#shared/store/update-fields';
import { LEAD_COUNTER_FIELDS, LEAD_KEYED_FIELDS, LEAD_NAME_FIELDS, leadCounterNames, leadKeys, nameKeysOf, toLeadNameItem } from './entity';
import type { Lead } from './schema';
import { unknownCompany, unknownMember } from './attributes';

/** The lists a lead is in (its counters, and the filters of a list or search): by status, by company and by assignee. */
export type LeadFilters = Pick<Lead, (typeof LEAD_COUNTER_FIELDS)[number]>;

/** The counters a lead counts in: every lead, its status, and with a company or an assignee, that company's or member's. */
function countersOf({ status, companyId, assignedMemberId }: LeadFilters): string[] {
  const names = [leadCounterNames.leads(), leadCounterNames.leads({ status })];
  if (companyId) names.push(leadCounterNames.leads({ companyId }));
  if (assignedMemberId !== null) names.push(leadCounterNames.leads({ assignedMemberId }));
  return names;
}

/** The counter moves when a lead's status, company or assignee changes: out of the old ones, into the new ones. */
export function counterMoves(organizationId: string, from: LeadFilters | null, to: LeadFilters | null): TransactWrite[] {
  const before = new Set(from ? countersOf(from) : []);
  const after = new Set(to ? countersOf(to) : []);
  return [
    ...[...before].filter((name) => !after.has(name)).map((name) => counterUpdate(organizationId, name, -1)),
    ...[...after].filter((name) => !before.has(name)).map((name) => counterUpdate(organizationId, name, 1)),
  ];
}

/** A linked company must be one of the organization's, checked inside the write's transaction. */
export function companyCheck(organizationId: string, companyId: string | null): TransactWrite[] {
  if (companyId === null) return [];
  return [requireExisting(leadKeys.company(organizationId, companyId), () => unknownCompany(companyId))];
}

/**
 * An assignee must be a member of the organization, checked inside the write's transaction: a member removed
 * meanwhile fails it (400), so no lead is newly assigned to a member who is gone.
 */
export function memberCheck(organizationId: string, assignedMemberId: number | null): TransactWrite[] {
  if (assignedMemberId === null) return [];
  return [requireExisting(memberKey(organizationId, assignedMemberId), () => unknownMember(assignedMemberId))];
}

/**
 * The lead still has the status, company, names and contacts it was read with, so the counters, name items and
 * claims its write moves are the right ones.
 */
export const asRead = (lead: Lead): Condition => heldAsRead(lead, LEAD_KEYED_FIELDS);

/**
 * The name items a write moves: those of names the lead no longer has go, and with any change of its names, status,
 * company or assignee every name it has is written again (they carry those).
 */
export function nameMoves(organizationId: string, from: Lead | null, to: Lead | null): TransactWrite[] {
  const before = from ? nameKeysOf(from) : [];
  const after = to ? nameKeysOf(to) : [];
  if (from && to && !changedAny(from, to, LEAD_NAME_FIELDS)) return [];
  return [
    ...before.filter((name) => !after.includes(name)).map((name) => deleteItem(leadKeys.leadName(organizationId, name, from!.id))),
    ...after.map((name): TransactWrite => ({ item: { Put: { TableName: config.tableName, Item: toLeadNameItem(organizationId, name, to!) } } })),
  ];
}
