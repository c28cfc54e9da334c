import { SMS_NUMBER_CLAIMS } from './entity';
import { PageQuery } from '#shared/schema';
import {
  AcceptInvitationBody,
  OrganizationInvitationIdPath,
  OrganizationMemberIdPath,
  MemberOrInvitationDeleted,
  MemberRemoved,
  RemoveMemberQuery,
  OrganizationMemberResponse,
  } from './member-schema';
import { OrganizationResponse, UpdateOrganizationBody } from './schema';
import { OrganizationServices } from '../services/schema';
import { defineRoute } from '#shared/routes/route';
import { createRow, deleteRow, readRow } from '#shared/routes/rows';
import { authorizerCacheFlush } from '#shared/auth/authorizer-cache-flush';
import { CREDENTIAL_CLAIMS } from './member-credential-keys';
import * as memberSchema from './member-schema';
import { recordRows } from '#shared/routes/record-rows';
import { prose } from '#shared/prose';

const TAG = 'Organization';

/** Where a row not of the records' standard kinds stands: the organization itself (the API key's, so no id in its path) unless it says. */
const organizationRow = (operationId: string, path = '/v1/organization') => ({ operationId, path, tag: TAG });

export const getOrganization = readRow({
  ...organizationRow('getOrganization'),
  summary: 'Read the organization the API key belongs to',
  description: 'Its name, time zone, SMS sender identity and counts of leads, members and services, read together in one call.',
  dynamodb: ['BatchGetItem'],
  request: {},
  response: OrganizationResponse,
});

export const updateOrganization = defineRoute({
  ...organizationRow('updateOrganization'),
  method: 'PATCH',
  summary: 'Change the organization’s name, timezone, country, currency, businessHours, closedDates, automationSmsDailyCap, ownerAlertsSms or smsSenderId',
  description: prose`
    Fields left out keep their values. \`businessHours\` is the whole week, replaced rather than merged by day: a
    PATCH with only \`monday\` leaves every other day closed, so send the week with the day changed. \`timezone\`
    must be an IANA zone (e.g. Australia/Sydney). \`country\` (ISO 3166-1 alpha-2, default \`AU\`) is the country
    whose national phone forms every write and lookup reads; an unknown code answers 400. \`currency\` (ISO 4217,
    default \`AUD\`) is what a lead’s \`value\` is in; an unknown code answers 400. \`automationSmsDailyCap\` (1 to
    20, default 3) is how many SMS its automations send one lead in a day. \`smsSenderId\` is what recipients see an
    SMS come from: a phone number or an alphanumeric sender id of up to 11 characters; \`null\` returns to the
    provider’s default. A number is taken as every phone field takes one, with its country code (\`+61 2 9999
    0620\`) or in the national form of the organization’s country (\`(02) 9999 0620\`), and stored in its one E.164
    form (\`+61299990620\`; a trunk 0 typed after the country code is dropped too). A number is also where replies
    come back, so it belongs to one organization: a number another organization has set answers 409
    \`SMS_SENDER_TAKEN\`, and the number an organization leaves is free for others at once.
  `,
  dynamodb: ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem', 'BatchGetItem'],
  sharedPartitions: [SMS_NUMBER_CLAIMS],
  status: 200,
  request: { body: UpdateOrganizationBody },
  response: OrganizationResponse,
  errors: [400, 409],
});

export const listOrganizationServices = readRow({
  ...organizationRow('listOrganizationServices', '/v1/organization/services'),
  summary: 'List the services grouped by trade category (only categories that have services)',
  description: prose`
    Every service of the organization under its trade category, categories in catalog order and only those with a
    service, newest service first within a category. Each service carries its \`durationUnit\` and pricing beside the
    spec’s fields; GET /v1/services lists them with their scenarios, filtered and paged.
  `,
  dynamodb: ['Query'],
  request: {},
  response: OrganizationServices,
});

const member = recordRows(memberSchema, { tag: TAG, names: { one: 'OrganizationMember', many: 'OrganizationMembers' }, path: '/v1/organization/members', given: { query: PageQuery, deleted: MemberOrInvitationDeleted }, changeLog: true });
const invitation = recordRows(memberSchema, { tag: TAG, names: { one: 'OrganizationInvitation', many: 'OrganizationInvitations' }, path: '/v1/organization/invitations', given: { query: PageQuery, deleted: MemberOrInvitationDeleted }, changeLog: true });

export const listOrganizationMembers = member.list({
  summary: 'List the members with a user account, newest first (pending invitations are left out)',
  description: prose`
    The organization's members with a user account, newest first. Pending invitations are listed apart (\`GET
    /v1/organization/invitations\`) and never counted here.
  `,
});

export const createOrganizationMember = member.create({
  summary: 'Add a member with a user account',
  description: prose`
    The member is active at once and gets a user (\`user.id\`, the \`userId\` that sends SMS). \`role\` defaults to
    MEMBER; a role above it is given by an ADMIN signed in alone (a key or token: 403 SESSION_REQUIRED). An email
    already used by a member or a pending invitation, ignoring case, answers 409. \`phone\`, where
    automations text the member, is read in the organization’s \`country\` and stored in E.164; one that is no valid
    number answers 400, and one another member of the organization has answers 409 \`PHONE_TAKEN\` (a texted code
    signs a phone in as one member of each organization).
  `,
  dynamodb: ['UpdateItem', 'PutItem', 'GetItem'],
  sessionFor: 'a role above MEMBER',
  requestExample: { email: 'tom@harbourcitytrades.com.au', firstName: 'Tom', lastName: 'Walsh', role: 'MEMBER', position: 'Licensed Plumber', responsibility: 'Emergency call-outs north of the bridge' },
  errors: [403, 409],
});

export const updateOrganizationMember = member.update({
  summary: 'Change a member’s email, firstName, lastName, role, position, responsibility, phone, isDisabled or workingHours',
  description: prose`
    Fields left out keep their values. \`email\` is the member’s user’s too (\`user.email\`): one another member or a
    pending invitation has, ignoring case, answers 409 CONFLICT, and the member’s old email may be used again at once.
    A \`phone\` another member of the organization has answers 409 \`PHONE_TAKEN\`; the old one is free at once.
    A disabled member stays listed, but its \`userId\` can no longer send SMS (400 USER_DISABLED). The last ADMIN
    cannot take another role (409 LAST_ADMIN). A member's \`role\` and \`phone\` (where their sign-in codes go) are
    changed, and a disabled member enabled, by an ADMIN signed in alone: a key or token asking it is refused 403
    SESSION_REQUIRED, and may still disable. A new role or state holds from the member's very next request.
  `,
  dynamodb: ['GetItem', 'Query', 'UpdateItem', 'ConditionCheckItem'],
  sessionFor: 'a member’s role or phone, or enabling a member',
  // A member demoted or disabled: what acts for them is decided afresh at its next request.
  capabilities: [authorizerCacheFlush],
  errors: [403, 409],
});

export const getOrganizationMember = member.get({ summary: 'Read a member', description: 'One member with a user account, as the list shows it. A pending invitation is not a member: its id answers 404 here until it is accepted.' });

export const deleteOrganizationMember = deleteRow({
  operationId: 'deleteOrganizationMember',
  path: '/v1/organization/members/{memberId}',
  tag: TAG,
  summary: 'Remove a member and its user, ending everything that acts for them',
  description: prose`
    The member leaves the list and its \`userId\` can no longer send SMS (\`POST /v1/sms\` answers 404 User not
    found), add company notes or be booked; messages, notes and appointments it already has keep their \`userId\`.
    Its email may be invited again. Everything that acted for the member ends with the removal, from its very next
    request: their sessions, their passkeys, and the API keys they made (with the assistants' grants made by those
    keys or by the member's consent), each revoked unless \`keepKeys\` names it (the answer lists both). Every service
    that names it in \`memberIds\` loses it in the same write (a service it alone took offers every member again, as
    \`[]\` does), so each service can be written back as read; a member more than 80 services name answers 409 until
    it is taken out of some. Removing the organization’s last ADMIN answers 409 \`LAST_ADMIN\`.
  `,
  dynamodb: ['GetItem', 'Query', 'DeleteItem', 'UpdateItem', 'ConditionCheckItem', 'PutItem'],
  // The member's passkeys go with them, and their credential ids' claims.
  sharedPartitions: [CREDENTIAL_CLAIMS],
  capabilities: [authorizerCacheFlush],
  request: { path: OrganizationMemberIdPath, query: RemoveMemberQuery },
  response: MemberRemoved,
  errors: [400, 404, 409],
});

export const createOrganizationInvitation = invitation.create({
  summary: 'Invite someone to join the organization',
  description: prose`
    A pending invitation: not a member, not listed among members, and its person cannot send SMS until it is accepted.
    An email already used by a member or a pending invitation answers 409. A role above MEMBER is offered by an ADMIN
    signed in alone (a key or token: 403 SESSION_REQUIRED).
  `,
  sessionFor: 'a role above MEMBER',
  errors: [403, 409],
});

export const listOrganizationInvitations = invitation.list({ summary: 'List pending invitations, newest first', description: 'Invitations not yet accepted; an accepted invitation leaves this list and appears among the members.' });

export const acceptOrganizationInvitation = createRow({
  ...organizationRow('acceptOrganizationInvitation', '/v1/organization/invitations/{invitationId}/accept'),
  summary: 'Accept an invitation: it becomes a member with a user',
  description: prose`
    The member keeps the invitation’s id, email and role. The body may give the first and last name; they are required
    when the invitation has none. An invitation already accepted answers 404. An invitation to a role above MEMBER is
    accepted by an ADMIN signed in alone (a key or token: 403 SESSION_REQUIRED).
  `,
  sessionFor: 'an invitation to a role above MEMBER',
  dynamodb: ['GetItem', 'DeleteItem', 'PutItem', 'UpdateItem'],
  request: { path: OrganizationInvitationIdPath, body: AcceptInvitationBody },
  response: OrganizationMemberResponse,
  errors: [403],
});

export const deleteOrganizationInvitation = invitation.delete({
  summary: 'Cancel a pending invitation',
  description: 'The invitation leaves the list; accepting it answers 404 from then on, and its email may be invited again. An invitation already accepted or cancelled answers 404.',
  dynamodb: ['GetItem', 'DeleteItem', 'UpdateItem', 'PutItem'],
});

export const organizationRoutes = [
  getOrganization,
  updateOrganization,
  listOrganizationMembers,
  createOrganizationMember,
  getOrganizationMember,
  updateOrganizationMember,
  deleteOrganizationMember,
  listOrganizationInvitations,
  createOrganizationInvitation,
  acceptOrganizationInvitation,
  deleteOrganizationInvitation,
  listOrganizationServices,
];
