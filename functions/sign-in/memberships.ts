import { queryAll } from '#shared/store/query-page';
import { readItem } from '#shared/store/read-item';
import { fromMemberItem, memberKeys } from '../organization/member-entity';
import { organizationKeys } from '../organization/entity';
import type { Member } from '../organization/member-schema';

/** A member a phone may sign in as: its organization (id and name) and the member as stored now. */
export interface Membership {
  organization: { id: string; name: string; smsSenderId: string | null };
  member: Member;
}

const organizationIdOf = (partition: string) => partition.slice('ORG#'.length);

/**
 * Every active membership of a phone: the members whose phone it is (the phone index, gsi1), each read again from its
 * item with its organization, so a member disabled or whose phone changed since the index was written is not one.
 */
export async function membershipsOf(phone: string): Promise<Membership[]> {
  const entries = await queryAll({ ...memberKeys.membersByPhone(phone), index: 'gsi1' }, ['pk', 'sk']);
  if (entries.length === 0) return [];
  const organizationIds = [...new Set(entries.map(({ pk }) => organizationIdOf(String(pk))))];
  // A phone is a member of a few organizations at most: each member and organization read at once.
  const keys = [...entries.map(({ pk, sk }) => ({ pk: String(pk), sk: String(sk) })), ...organizationIds.map((id) => organizationKeys.organization(id))];
  const items = (await Promise.all(keys.map(readItem))).filter((item) => item !== undefined);
  const organizations = new Map(items.filter((item) => item.sk === 'ORGANIZATION').map((item) => [organizationIdOf(String(item.pk)), item]));
  return items
    .filter((item) => item.entity === 'MEMBER')
    .map((item) => ({ item, member: fromMemberItem(item) }))
    .filter(({ member }) => member.phone === phone && !member.isDisabled)
    .flatMap(({ item, member }) => {
      const organization = organizations.get(organizationIdOf(String(item.pk)));
      return organization ? [{ organization: { id: String(organization.id), name: String(organization.name), smsSenderId: (organization.smsSenderId as string | undefined) ?? null }, member }] : [];
    })
    .sort((a, b) => a.organization.name.localeCompare(b.organization.name));
}
