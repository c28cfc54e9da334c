/**
 * A member's role, lowest first: MEMBER works leads and inquiries, MANAGER also runs the pipeline's settings
 * (services, products, automations), ADMIN also manages who and what may reach the organization (keys, members,
 * webhooks, OAuth grants). There is no role above ADMIN: the owner is an ADMIN.
 */
export const MEMBER_ROLES = ['ADMIN', 'MANAGER', 'MEMBER'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

const RANK: Readonly<Record<MemberRole, number>> = { MEMBER: 0, MANAGER: 1, ADMIN: 2 };

export const isMemberRole = (value: unknown): value is MemberRole => (MEMBER_ROLES as readonly unknown[]).includes(value);

/** Whether a member of `role` may call a route that needs `needed`. */
export const roleAllows = (role: MemberRole, needed: MemberRole): boolean => RANK[role] >= RANK[needed];

/**
 * What a resource's routes need of a member's session, by kind of method. Its writes' role is chosen for each resource,
 * never by omission; its reads need MEMBER unless it says.
 */
export interface SessionRoles {
  read?: MemberRole;
  write: MemberRole;
}

/** The role a route needs: its own, else its resource's for its kind of method (a read's MEMBER unless it says). */
export const neededRole = (method: string, own: MemberRole | undefined, ofResource: SessionRoles): MemberRole => own ?? (method === 'GET' ? (ofResource.read ?? 'MEMBER') : ofResource.write);
