import { newId } from '#shared/ids';
import { addLead, addLeadActivity, newLead } from './rules';
import type { Lead } from './schema';
import type { DemoSeed } from '#shared/resource';

const DAY = 24 * 60 * 60 * 1000;

/** `assignee` is the member's last name: the two newest leads are nobody's yet, as an inbox's first hour has them, and neither is the lost one. */
const DEMO_LEADS: Array<{ name: string; email?: string; phone?: string; suburb: string; businessName?: string; status: Lead['status']; value?: number; lostReason?: string; daysAgo: number; assignee?: string }> = [
  { name: 'Olivia Nguyen', email: 'olivia.nguyen@example.com.au', phone: '+61412345001', suburb: 'Parramatta', status: 'NEW', daysAgo: 0.2 },
  // A caller who left only a number, entered by hand.
  { name: 'Mia Russo', phone: '+61412345009', suburb: 'Marrickville', status: 'NEW', daysAgo: 0.5 },
  { name: 'Jack Thompson', email: 'jack@thompsonbuilds.com.au', phone: '+61412345002', suburb: 'Newtown', businessName: 'Thompson Builds', status: 'CONTACTED', value: 650, daysAgo: 2, assignee: 'Sharma' },
  { name: 'Charlotte Williams', email: 'charlotte.w@example.com.au', phone: '+61412345003', suburb: 'Bondi', status: 'QUOTED', value: 2400, daysAgo: 4, assignee: 'Russo' },
  { name: 'Noah Patel', email: 'noah.patel@example.com.au', phone: '+61412345004', suburb: 'Chatswood', status: 'NEW', value: 450, daysAgo: 7, assignee: 'Walsh' },
  { name: 'Amelia Brown', email: 'amelia@brownproperty.com.au', phone: '+61412345005', suburb: 'Manly', businessName: 'Brown Property Management', status: 'QUALIFIED', value: 18500, daysAgo: 12, assignee: 'Mitchell' },
  { name: 'William Chen', email: 'will.chen@example.com.au', suburb: 'Hurstville', status: 'WON', value: 3850, daysAgo: 22, assignee: 'Walsh' },
  { name: 'Isla O\'Connor', email: 'isla.oconnor@example.com.au', phone: '+61412345007', suburb: 'Penrith', status: 'LOST', value: 1200, lostReason: 'PRICE', daysAgo: 28 },
  { name: 'Lucas van der Berg', email: 'lucas@vdbcafe.com.au', phone: '+61412345008', suburb: 'Surry Hills', businessName: 'VDB Cafe', status: 'CONTACTED', value: 5200.5, daysAgo: 58, assignee: 'Mitchell' },
];

/** Notes the team added to leads' timelines (NOTE_ADDED). */
const DEMO_NOTES: Array<[leadName: string, note: string]> = [
  ['Jack Thompson', 'Prefers a call after 3 pm; site access is through the side gate.'],
  ['Amelia Brown', 'Manages 14 strata buildings in Manly; quotes go to her accounts team.'],
];

/** The demo's members, as the organization's seed made them (read by shape: organization already uses leads). */
type DemoMember = { id: number; lastName: string | null };

/**
 * Nine leads of a Sydney trades business made over the last 60 days (so the reports have history to show), with
 * their job values and the members they are assigned to, oldest first so ids sort as their dates do.
 */
export async function seedLeads(organizationId: string, members: readonly DemoMember[], at = Date.now()): Promise<Lead[]> {
  const leads: Lead[] = [];
  for (const { assignee, ...demo } of [...DEMO_LEADS].reverse()) {
    const createdAt = new Date(at - demo.daysAgo * DAY);
    const assignedMemberId = assignee === undefined ? null : members.find((member) => member.lastName === assignee)!.id;
    const lead = { ...newLead({ ...demo, assignedMemberId }, newId('lead', createdAt), createdAt.toISOString()), status: demo.status };
    leads.push(await addLead(organizationId, lead));
  }
  return leads.reverse();
}

/** This resource's part of the demo organization (infra/demo reads it by the list of resources). */
export const demoSeed: DemoSeed = {
  after: ['organization'],
  run: async (organizationId, demo) => {
    const leads = await seedLeads(organizationId, demo.members as DemoMember[]);
    for (const [name, note] of DEMO_NOTES) await addLeadActivity(organizationId, leads.find((lead) => `${lead.firstName} ${lead.lastName}` === name)!.id, { event: 'NOTE', data: note });
    return { leads, leadIds: leads.map((lead) => lead.id) };
  },
};
