import type { paths } from './api-schema';
import { ROLE_NEEDED } from './api-lists';
import { useSession } from './session';
import { ROLES, type Role } from './types';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** An operation of the document as `METHOD /path/template`: `PATCH /v1/organization`. */
export type Operation = { [P in keyof paths]: { [M in Method]: paths[P][M] extends Record<string, unknown> ? `${Uppercase<M>} ${P & string}` : never }[Method] }[keyof paths];

/** Whether a member of `role` may call the operation, as the API decides it (the document's least role for it). */
export const mayCall = (role: Role | undefined, operation: Operation): boolean => role !== undefined && ROLES.indexOf(role) <= ROLES.indexOf(ROLE_NEEDED[operation] ?? 'MEMBER');

/** Whether the member signed in may call an operation: a form they may not send is not offered, rather than refused after. */
export function useMay(): (operation: Operation) => boolean {
  const session = useSession();
  return (operation) => mayCall(session?.member.role, operation);
}
