import { createMember, inviteMember, updateMember, type NewMember } from './member-rules';
import { updateOrganization } from './store';
import type { WeeklyHours } from '#shared/schedule';
import type { Member } from './member-schema';
import type { DemoSeed } from '#shared/resource';

const DAY = 24 * 60 * 60 * 1000;

const DEMO_MEMBERS: Array<NewMember & { daysAgo: number }> = [
  {
    role: 'ADMIN',
    firstName: 'Sarah',
    lastName: 'Mitchell',
    email: 'sarah@harbourcitytrades.com.au',
    position: 'Director',
    responsibility: 'Quotes over $5,000, accounts and supplier relationships',
    avatarImg: 'https://images.harbourcitytrades.com.au/team/sarah-mitchell.jpg',
    daysAgo: 400,
  },
  {
    role: 'MANAGER',
    firstName: 'Daniel',
    lastName: 'Russo',
    email: 'daniel@harbourcitytrades.com.au',
    position: 'Operations Manager',
    responsibility: 'Scheduling crews, job follow-ups and strata clients',
    avatarImg: 'https://images.harbourcitytrades.com.au/team/daniel-russo.jpg',
    daysAgo: 250,
  },
  {
    role: 'MEMBER',
    firstName: 'Priya',
    lastName: 'Sharma',
    email: 'priya@harbourcitytrades.com.au',
    position: 'Office Coordinator',
    responsibility: 'Answering new enquiries and booking site visits',
    avatarImg: null,
    daysAgo: 90,
  },
  {
    role: 'MEMBER',
    firstName: 'Tom',
    lastName: 'Walsh',
    email: 'tom@harbourcitytrades.com.au',
    position: 'Licensed Plumber',
    responsibility: 'Emergency call-outs north of the bridge',
    avatarImg: null,
    daysAgo: 30,
  },
];

const WEEKDAY = [{ open: '07:00', close: '17:00' }];

/** A Sydney trades office: weekdays 7 to 5, Saturday mornings. */
const DEMO_BUSINESS_HOURS: WeeklyHours = { monday: WEEKDAY, tuesday: WEEKDAY, wednesday: WEEKDAY, thursday: WEEKDAY, friday: WEEKDAY, saturday: [{ open: '08:00', close: '12:00' }] };

/** NSW public holidays the office closes for. */
const DEMO_CLOSED_DATES = ['2026-12-25', '2026-12-28', '2027-01-01', '2027-01-26', '2027-03-26', '2027-03-29'];

/** The emergency plumber also works evenings and Sundays. */
const ON_CALL_HOURS: WeeklyHours = { ...DEMO_BUSINESS_HOURS, friday: [{ open: '07:00', close: '22:00' }], sunday: [{ open: '09:00', close: '15:00' }] };

/** Four team members with accounts (oldest first, so ids follow dates) and one pending invitation. */
export async function seedMembers(organizationId: string, at = Date.now()): Promise<Member[]> {
  const members: Member[] = [];
  for (const { daysAgo, ...member } of DEMO_MEMBERS) {
    members.push(await createMember(organizationId, member, new Date(at - daysAgo * DAY).toISOString()));
  }
  await inviteMember(organizationId, { email: 'liam.kelly@harbourcitytrades.com.au', role: 'MEMBER', firstName: 'Liam', lastName: 'Kelly' }, new Date(at - 2 * DAY).toISOString());
  return members.reverse();
}

/** This resource's part of the demo organization (infra/demo reads it by the list of resources). */
export const demoSeed: DemoSeed = {
  run: async (organizationId) => {
    await updateOrganization(organizationId, { businessHours: DEMO_BUSINESS_HOURS, closedDates: DEMO_CLOSED_DATES });
    const members = await seedMembers(organizationId);
    const onCall = members.find((member) => member.lastName === 'Walsh')!;
    members.splice(members.indexOf(onCall), 1, await updateMember(organizationId, onCall.id, { workingHours: ON_CALL_HOURS }));
    return { members, memberIds: members.map((member) => member.id), userIds: members.map((member) => member.user.id) };
  },
};
