import { DeletedSchema, PageQuery } from '#shared/schema';
import { LeadIdPath, UpsertLeadBody, UpsertLeadResponse } from './schema';
import { errorEnvelope } from '#shared/http/envelope';
import { defineRoute } from '#shared/routes/route';
import { LEAD_ID } from './examples';
import * as schema from './schema';
import { recordRows } from '#shared/routes/record-rows';
import { prose } from '#shared/prose';

const activity = recordRows(schema, { tag: 'Leads', names: { one: 'LeadActivity', many: 'LeadActivities' }, path: '/v1/leads/{leadId}/activities', parent: LeadIdPath, given: { query: PageQuery } });
const lead = recordRows(schema, { tag: 'Leads', names: { one: 'Lead', many: 'Leads' }, path: '/v1/leads', given: { deleted: DeletedSchema }, changeLog: true });

/**
 * The 409 of a write that may give a lead a contact another lead holds (DUPLICATE_CONTACT, naming that lead), with
 * the example of the field given; `orConflict` on a change that can also lose to concurrent ones (CONFLICT).
 */
const duplicateContact = (field: 'email' | 'phone', { orConflict = false } = {}) => {
  const message = `${field}: lead ${LEAD_ID} already has this ${field}`;
  return {
    409: {
      description: prose`
        DUPLICATE_CONTACT: another lead has the email (any case) or phone; \`error.details[0]\` names the field
        (\`path\`) and that lead (\`existingId\`). Or
        ${orConflict ? 'CONFLICT: the lead was changed by others so often meanwhile that this change could not be applied (try again); or ' : ''}an
        Idempotency-Key used for another request (IDEMPOTENCY_KEY_REUSED) or still in progress
        (IDEMPOTENCY_IN_PROGRESS).
      `,
      examples: { DuplicateContact: errorEnvelope(409, message, 'DUPLICATE_CONTACT', [{ path: field, message, existingId: LEAD_ID }]) },
    },
  };
};

export const listLeads = lead.list({
  summary: 'List leads, newest first',
  description: prose`
    Pages through the organization’s leads, newest first, optionally only those of one \`status\`, one \`companyId\`
    and/or one \`assignedMemberId\`, or searches them: \`q\` matches a first or last name by its start, ignoring case
    and accents (\`zoe\` finds Zoë), an email (exact, any case) when it has an \`@\`, or a phone number in any common
    form (\`0412 345 678\`, \`+61 412 345 678\`, read in the organization’s \`country\`); \`email=\` and \`phone=\` are
    exact filters on the contact. Send at most one of \`q\`, \`email\` and \`phone\` (400 naming the second); each
    combines with \`status\`, \`companyId\` and \`assignedMemberId\`. A search lists each lead once across its pages;
    \`totalCount\` is exact for every filter and search. With \`status\`, \`statusChangedSince\` and
    \`statusChangedBefore\` list the leads that took that status within a range of times (\`statusChangedAt\`), the
    latest first: the quotes gone quiet (\`status=QUOTED&statusChangedBefore=\` a week ago), the leads won in a month.
  `,
  // BatchGetItem: a sharded organization's totalCount is the sum of its counter's shards, and a name search's page of leads.
  // GetItem: also the organization's timezone for a national phone number.
  dynamodb: ['Query', 'GetItem', 'BatchGetItem'],
  indexes: ['gsi2', 'gsi3', 'gsi4', 'gsi5'],
});

export const createLead = lead.create({
  summary: 'Create a lead',
  description: prose`
    Creates a lead with \`status\` NEW, or the status given (a lead synced from another system keeps its stage: it is
    listed and counted under it at once), and records its LEAD_CREATED activity in the same transaction. \`name\` (or
    \`firstName\`) is required, and \`email\` or \`phone\` (a caller who left only a phone is entered with it); \`name\`
    is split into first and last name unless those are given. A \`companyId\` must be a company of the organization, and
    an \`assignedMemberId\` one of its members. A \`phone\` is read as typed: with its country code, or in the national
    form of the organization’s \`country\` (\`0412 345 678\`), and stored in E.164. An email (any case) or phone another
    lead has answers 409 \`DUPLICATE_CONTACT\`, whose \`error.details[0].existingId\` is that lead’s id.
  `,
  // GetItem: after a lost claim on a contact, the claim and its lead, to name the lead holding it.
  dynamodb: ['UpdateItem', 'PutItem', 'ConditionCheckItem', 'GetItem'],
  errors: [409],
  responses: duplicateContact('email'),
});

export const upsertLead = defineRoute({
  operationId: 'upsertLead',
  method: 'POST',
  path: '/v1/leads/upsert',
  summary: 'Create a lead, or change the one with this email or phone',
  description: prose`
    \`match\` names the contact that finds the lead: \`email\` (any case) or \`phone\`, which the body must carry. A
    \`phone\` is read as on create (a national form in the organization’s \`country\`), so \`0412 345 678\` finds
    the lead stored with +61412345678. The lead holding it gets the other fields (the matched contact stays as the
    lead has it), as a PATCH would apply them (\`name\` is split into first and last name unless those are given; a
    new \`status\` records a STATUS_CHANGED activity and moves the lead between status lists and counts), and the
    answer is 200 with \`created: false\`; with no such lead one is created as by POST /v1/leads (then \`name\` or
    \`firstName\` is required) and the answer is 201 with \`created: true\`. Concurrent upserts of one new contact
    make one lead. Another contact of the body held by another lead answers 409 \`DUPLICATE_CONTACT\` naming that
    lead.
  `,
  tag: 'Leads',
  dynamodb: ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem', 'ConditionCheckItem'],
  // A lead that has the contact gets the other fields, as a PATCH would set (and clear) them.
  replaces: true,
  status: 201,
  request: { body: UpsertLeadBody },
  requestExample: { match: 'email', email: 'olivia.nguyen@example.com.au', name: 'Olivia Nguyen', phone: '+61412345001', suburb: 'Parramatta' },
  response: UpsertLeadResponse,
  errors: [400, 409],
  responses: {
    200: { description: 'A lead held the contact: the fields were applied to it.', schema: UpsertLeadResponse },
    ...duplicateContact('phone'),
  },
});

export const getLead = lead.get({ summary: 'Read a lead', description: 'One lead with its pipeline state and unread counts. Another organization’s lead answers 404.' });

export const updateLead = lead.update({
  summary: 'Change a lead’s details, status, read flag, company or assignee',
  description: prose`
    Fields left out keep their values; \`null\` clears an optional field. A new \`status\` records a STATUS_CHANGED
    activity in the same transaction; a \`companyId\` must be a company of the organization and a new
    \`assignedMemberId\` one of its members (else 400). A \`phone\` is read as on create. An email or phone another lead
    has answers 409 \`DUPLICATE_CONTACT\`, whose \`error.details[0].existingId\` is that lead’s id.
  `,
  dynamodb: ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem', 'ConditionCheckItem'],
  errors: [409],
  responses: duplicateContact('phone', { orConflict: true }),
});

export const deleteLead = lead.delete({
  summary: 'Delete a lead',
  description: 'Removes the lead, its counts and its activities. Inquiries keep their `leadId`; lists expanding the lead show it as null. A lead already gone answers 404.',
  dynamodb: ['GetItem', 'DeleteItem', 'UpdateItem', 'Query', 'BatchWriteItem', 'PutItem'],
});

export const listLeadActivities = activity.list({
  summary: "List a lead's activities, newest first",
  description: 'The lead’s history (LEAD_CREATED, STATUS_CHANGED, …), newest first. An unknown lead answers 404, not an empty list.',
  // With updatedSince, the activities' own partition from that time: they are sorted by when they were recorded.
  dynamodb: ['Query', 'GetItem'],
});

export const createLeadActivity = activity.create({
  summary: 'Add a note to a lead’s timeline',
  description: prose`
    \`{event: "NOTE", data}\` records the note text as a \`NOTE_ADDED\` activity (\`userId\` null, as for every change
    made with an API key), listed with the lead’s other activities. \`NOTE\` is the only event a client adds; the
    others are recorded by what they describe. An unknown lead answers 404 and records nothing.
  `,
  // UpdateItem reserves the activity id; the transaction puts the activity and moves the lead's activity counter.
  dynamodb: ['UpdateItem', 'PutItem'],
  requestExample: { event: 'NOTE', data: 'Prefers a call after 3pm; the side gate code is 4412.' },
});

export const leadRoutes = [listLeads, createLead, upsertLead, getLead, updateLead, deleteLead, listLeadActivities, createLeadActivity];
