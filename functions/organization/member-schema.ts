import * as v from 'valibot';
import { prose } from '#shared/prose';
import { WeeklyHours } from '#shared/schedule';
import { Email, NonEmptyString, Timestamp, deletedSchema, integerString, pageSchema, partialUpdateBody } from '#shared/schema';
import { TypedPhone } from '../leads/attributes';

import { MEMBER_ROLES, type MemberRole } from '#shared/member-roles';

export { MEMBER_ROLES, type MemberRole };

export const MemberUser = v.object({ id: v.string(), email: v.string() });

export const Member = v.object({
  id: v.pipe(v.number(), v.integer()),
  role: v.picklist(MEMBER_ROLES),
  firstName: v.string(),
  lastName: v.string(),
  position: v.nullable(v.string()),
  responsibility: v.nullable(v.string()),
  /** E.164: where the organization's automations text the member (a `notify_member` step); null: none. */
  phone: v.optional(v.nullable(v.string()), null),
  avatarImg: v.nullable(v.string()),
  isDisabled: v.boolean(),
  /** When the member works, in the organization's timezone; null: the organization's businessHours. */
  workingHours: v.optional(v.nullable(WeeklyHours), null),
  user: MemberUser,
  /** When the member was added or last changed: the sync order (updatedSince). */
  updatedAt: Timestamp,
});
export type Member = v.InferOutput<typeof Member>;

export const OrganizationMemberPage = pageSchema('members', Member);
export const OrganizationMemberResponse = v.object({ member: Member });

const Role = v.picklist(MEMBER_ROLES, `role must be one of ${MEMBER_ROLES.join(', ')}`);

const memberFields = {
  email: Email('email', 'email is required'),
  firstName: NonEmptyString('firstName', 100),
  lastName: NonEmptyString('lastName', 100),
  role: Role,
  position: v.nullable(NonEmptyString('position', 200)),
  responsibility: v.nullable(NonEmptyString('responsibility', 1000)),
  phone: v.pipe(v.nullable(TypedPhone), v.description("The member's phone, where automations text them (`notify_member`): with its country code or in the national form of the organization's `country`; answered in E.164. An invalid number answers 400. `null`: none.")),
  isDisabled: v.boolean('isDisabled must be a boolean'),
  workingHours: v.nullable(WeeklyHours),
};

/** A member is active at once, with a user account; MEMBER unless another role is given. */
export const CreateOrganizationMemberBody = v.strictObject({
  email: memberFields.email,
  firstName: memberFields.firstName,
  lastName: memberFields.lastName,
  role: v.optional(memberFields.role, 'MEMBER'),
  position: v.optional(memberFields.position, null),
  responsibility: v.optional(memberFields.responsibility, null),
  phone: v.optional(memberFields.phone, null),
});
export type CreateOrganizationMemberBody = v.InferOutput<typeof CreateOrganizationMemberBody>;

/** What an administrator changes about a member: its email is its user's too, and stays one member's (409 when taken). */
export const UpdateOrganizationMemberBody = partialUpdateBody({
  email: memberFields.email,
  firstName: memberFields.firstName,
  lastName: memberFields.lastName,
  role: memberFields.role,
  position: memberFields.position,
  responsibility: memberFields.responsibility,
  phone: memberFields.phone,
  isDisabled: memberFields.isDisabled,
  workingHours: v.pipe(memberFields.workingHours, v.description('The whole week, replacing the one stored (days are not merged): a day left out or empty is one the member does not work. `null`: the organization’s businessHours.')),
});
export type MemberChanges = v.InferOutput<typeof UpdateOrganizationMemberBody>;

export const OrganizationMemberIdPath = v.object({ memberId: integerString('memberId') });

export const INVITATION_STATUSES = ['PENDING'] as const;

/** Someone asked to join who has no user account yet; never listed as a member, never a sender. */
export const Invitation = v.object({
  id: v.pipe(v.number(), v.integer()),
  email: v.string(),
  role: v.picklist(MEMBER_ROLES),
  firstName: v.nullable(v.string()),
  lastName: v.nullable(v.string()),
  status: v.picklist(INVITATION_STATUSES),
  createdAt: Timestamp,
  /** Invitations are never changed (accepted or cancelled, they go): always their createdAt. */
  updatedAt: Timestamp,
});
export type Invitation = v.InferOutput<typeof Invitation>;

export const CreateOrganizationInvitationBody = v.strictObject({
  email: memberFields.email,
  role: v.optional(memberFields.role, 'MEMBER'),
  firstName: v.optional(v.nullable(memberFields.firstName), null),
  lastName: v.optional(v.nullable(memberFields.lastName), null),
});
export type CreateOrganizationInvitationBody = v.InferOutput<typeof CreateOrganizationInvitationBody>;

/** The names the invitation lacks, given by the person accepting it; names sent here win. */
export const AcceptInvitationBody = v.strictObject({
  firstName: v.optional(memberFields.firstName),
  lastName: v.optional(memberFields.lastName),
});
export type AcceptInvitationBody = v.InferOutput<typeof AcceptInvitationBody>;

export const OrganizationInvitationIdPath = v.object({ invitationId: integerString('invitationId') });
export const OrganizationInvitationResponse = v.object({ invitation: Invitation });
export const OrganizationInvitationPage = pageSchema('invitations', Invitation);

/** The answer of a member's removal and of an invitation's cancellation: the integer id. */
export const MemberOrInvitationDeleted = deletedSchema(v.pipe(v.number(), v.integer()));

/** `key_` and its ULID, once or more, separated by commas. */
const KEY_IDS = /^key_[0-9A-HJKMNP-TV-Z]{26}(?:,key_[0-9A-HJKMNP-TV-Z]{26}){0,19}$/;

/** What a member's removal keeps of what the member made: the API keys named, passed on to whoever removes them. */
export const RemoveMemberQuery = v.object({
  keepKeys: v.optional(
    v.pipe(
      v.string('keepKeys must be a string'),
      v.regex(KEY_IDS, 'keepKeys must be up to 20 API key ids (key_…), separated by commas'),
      v.description(
        prose`
          API keys the member made to keep, by id, separated by commas: each then acts for whoever removes the member
          (their member, or the organization for its own key). Every other key acting for the member is revoked. A key
          that does not act for the member answers 400 naming \`keepKeys\`, and nothing is removed.
        `,
      ),
    ),
  ),
});

/** A removed member's id, and what became of the keys that acted for them. */
export const MemberRemoved = v.object({
  success: v.literal(true),
  id: v.pipe(v.number(), v.integer()),
  revokedKeyIds: v.pipe(v.array(v.string()), v.description('The API keys that acted for the member, revoked with the removal (their grants to assistants end with them).')),
  keptKeyIds: v.pipe(v.array(v.string()), v.description('The keys `keepKeys` named, now acting for whoever removed the member.')),
});
