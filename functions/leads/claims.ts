import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { ApiError } from '#shared/errors';
import { insertIfAbsent, type TransactWrite } from '#shared/store/transact';
import { StaleWrite } from '#shared/store/versioned';
import { contactAttribute, contactsOf, hasContact, type LeadContact, leadKeys, sameContact, toLeadContactItem } from './entity';
import { getLead } from './read';
import type { Lead } from './schema';

/** A claim as last read: the lead it names, which no longer has the contact (deleted, or its contact changed). */
export interface StaleClaim {
  contact: LeadContact;
  leadId: string;
}

/** A claim on a lead's new contact was not as last read: another lead took it, or a stale lead got it back. */
export class ContactTaken extends Error {}

/** A contact and the live lead that holds it: it exists and still has the contact. */
export interface HeldContact {
  contact: LeadContact;
  holder: Lead;
}

/**
 * The lead a write was meant for, found by one of its contacts, was deleted or gave the contact up between the lookup
 * and the write: the write is not made, and the caller looks the contact up again.
 */
export class LeadLostContact extends Error {}

/** Rethrows a LeadLostContact as a StaleWrite, so the retryOnStaleWrite around the lookup runs it again. */
export function lookUpAgain(error: unknown): never {
  throw error instanceof LeadLostContact ? new StaleWrite() : error;
}

/**
 * Claims the contacts for a new lead only as they were read: a free claim only while it is absent, a stale one
 * only while it still names the lead read and that lead still lacks the contact (a PATCH may give it back).
 * Any of those failing throws `onTaken`: read the claims again.
 */
export function claimContacts(organizationId: string, leadId: string, contacts: LeadContact[], stale: StaleClaim[], onTaken: () => Error): TransactWrite[] {
  const claims = contacts.map((contact): TransactWrite => {
    const item = toLeadContactItem(organizationId, contact, leadId);
    const held = stale.find((claim) => sameContact(claim.contact, contact));
    if (!held) return insertIfAbsent(item, onTaken);
    return { item: { Put: { TableName: config.tableName, Item: item, ConditionExpression: '#leadId = :held', ExpressionAttributeNames: { '#leadId': 'leadId' }, ExpressionAttributeValues: { ':held': held.leadId } } }, onConditionFailed: onTaken };
  });
  // One check per stale lead: a transaction may name an item only once. The lead itself (a PATCH giving back a
  // contact it had) needs none: its own write is conditioned on the contacts it was read with.
  const checks = [...new Set(stale.map((claim) => claim.leadId))].filter((staleLeadId) => staleLeadId !== leadId).map((staleLeadId): TransactWrite => {
    const attributes = stale.filter((claim) => claim.leadId === staleLeadId).map((claim) => contactAttribute(claim.contact));
    return {
      item: {
        ConditionCheck: {
          TableName: config.tableName,
          Key: leadKeys.lead(organizationId, staleLeadId),
          ConditionExpression: attributes.map((_, i) => `(attribute_not_exists(#a${i}) OR #a${i} <> :v${i})`).join(' AND '),
          ExpressionAttributeNames: Object.fromEntries(attributes.map(([name], i) => [`#a${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(attributes.map(([, value], i) => [`:v${i}`, value])),
        },
      },
      onConditionFailed: onTaken,
    };
  });
  return [...claims, ...checks];
}

/** Each contact's claim as it is now, with its lead when that lead still exists and has the contact. */
export async function readClaims(organizationId: string, contacts: LeadContact[]): Promise<Array<{ contact: LeadContact; leadId?: string; holder?: Lead }>> {
  return Promise.all(
    contacts.map(async (contact) => {
      const leadId = await leadOfContact(organizationId, contact);
      const lead = leadId ? await getLead(organizationId, leadId) : undefined;
      return { contact, leadId, holder: lead && hasContact(lead, contact) ? lead : undefined };
    }),
  );
}

/** The live lead holding a contact, if any: its claim, and the claim's lead while it still has the contact. */
export async function holderOf(organizationId: string, contact: LeadContact): Promise<Lead | undefined> {
  return (await readClaims(organizationId, [contact]))[0]!.holder;
}

/** 409 DUPLICATE_CONTACT: the contact belongs to another lead, named by `existingId` in the detail. */
export function duplicateContact({ contact, holder }: HeldContact): ApiError {
  const field = contact.kind === 'EMAIL' ? 'email' : 'phone';
  const message = `${field}: lead ${holder.id} already has this ${field}`;
  return new ApiError(409, message, 'DUPLICATE_CONTACT', [{ path: field, message, existingId: holder.id }]);
}

/** The contacts a change gives the lead, as their claims now stand: which are held by another live lead, which stale. */
export async function claimsOfNewContacts(organizationId: string, current: Lead, next: Lead): Promise<{ held?: HeldContact; stale: StaleClaim[] }> {
  const read = await readClaims(organizationId, contactsOf(next).filter((contact) => !hasContact(current, contact)));
  const held = read.find(({ holder }) => holder && holder.id !== current.id);
  return { held: held && { contact: held.contact, holder: held.holder! }, stale: read.flatMap(({ contact, leadId }) => (leadId ? [{ contact, leadId }] : [])) };
}

/**
 * The lead holding the first of these contacts that a lead holds (email before phone): every claim and its lead read
 * side by side, two round trips whatever the number of contacts.
 */
export async function holderOfFirst(organizationId: string, contacts: LeadContact[]): Promise<HeldContact | undefined> {
  const held = (await readClaims(organizationId, contacts)).find((claim): claim is HeldContact => claim.holder !== undefined);
  return held && { contact: held.contact, holder: held.holder };
}

/** The lead that last took this contact, if any has; it may since have been deleted or lost the contact. */
export async function leadOfContact(organizationId: string, { kind, value }: LeadContact): Promise<string | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: leadKeys.leadContact(organizationId, kind, value), ConsistentRead: true }));
  return Item ? String(Item.leadId) : undefined;
}

/** The lead with this phone (E.164): its claim, then the lead while it still has the phone. */
export const findLeadByPhone = (organizationId: string, phone: string) => holderOf(organizationId, { kind: 'PHONE', value: phone });

/**
 * The id of the lead that last took this phone, which may since have lost it (one consistent GetItem): for a read
 * that fetches the lead beside what it needs of it, and keeps it only while `hasContact` says it still holds it.
 */
export const claimedLeadIdOfPhone = (organizationId: string, phone: string) => leadOfContact(organizationId, { kind: 'PHONE', value: phone });
