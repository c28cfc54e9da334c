import { useEffect } from 'preact/hooks';
import { api, listUntil } from './api';
import { useSession } from './session';
import { store, useStore } from './store';
import type { Lead, Member } from './types';

/** The organization's members, by whom leads are assigned: read once per organization, and again after a change. */
const members = store<{ organizationId: string; members: Member[] } | undefined>(undefined);
let reading: string | undefined;

/** Read the members again at the next screen that asks (a member was added or removed). */
export const membersChanged = () => members.set(undefined);

/** The signed-in member's organization's members (a team: tens), undefined until read. */
export function useMembers(): Member[] | undefined {
  const signedInto = useSession()?.organization.id;
  const value = useStore(members);
  useEffect(() => {
    if (!signedInto || value?.organizationId === signedInto || reading === signedInto) return;
    reading = signedInto;
    listUntil((limit, cursor) => api.GET('/v1/organization/members', { params: { query: { limit, cursor } } }), 'members')
      .then(
        ({ items }) => members.set({ organizationId: signedInto, members: items }),
        // Assignees then show by id; the next screen that asks reads them again.
        () => undefined,
      )
      .finally(() => {
        reading = undefined;
      });
  }, [signedInto, value?.organizationId]);
  return value && value.organizationId === signedInto ? value.members : undefined;
}

/** A member's name, or for an id no member has now, a removed member's (leads keep the id of a member removed since). */
export function memberName(memberId: number, known: Member[] | undefined): string {
  const member = known?.find((each) => each.id === memberId);
  if (member) return `${member.firstName} ${member.lastName}`;
  return known ? `a removed member (#${memberId})` : `member #${memberId}`;
}

/** Who a lead is assigned to, in words: "Assigned to Ava Chen", or "Unassigned". */
export const assignedTo = (assignedMemberId: Lead['assignedMemberId'], known: Member[] | undefined) =>
  assignedMemberId === null ? 'Unassigned' : `Assigned to ${memberName(assignedMemberId, known)}`;
