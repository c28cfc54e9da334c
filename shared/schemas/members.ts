import * as v from 'valibot';
import { pageSchema } from './common';

/** ADMIN manages the account and its keys, MANAGER the pipeline and team, MEMBER works leads. */
export const MEMBER_ROLES = ['ADMIN', 'MANAGER', 'MEMBER'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const MemberUser = v.object({ id: v.string(), email: v.string() });

export const Member = v.object({
  id: v.pipe(v.number(), v.integer()),
  role: v.picklist(MEMBER_ROLES),
  firstName: v.string(),
  lastName: v.string(),
  position: v.nullable(v.string()),
  responsibility: v.nullable(v.string()),
  avatarImg: v.nullable(v.string()),
  isDisabled: v.boolean(),
  user: MemberUser,
});
export type Member = v.InferOutput<typeof Member>;

export const MemberPage = pageSchema('members', Member);
