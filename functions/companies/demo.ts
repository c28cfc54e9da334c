import * as v from 'valibot';
import { createCompany } from './store';
import { addCompanyNote } from './notes-store';
import { CreateCompanyBody, type Company } from './schema';
import type { Member } from '../organization/member-schema';
import { updateLead } from '../leads/rules';
import type { Lead } from '../leads/schema';
import type { DemoSeed } from '../../shared/resource';

const DAY = 24 * 60 * 60 * 1000;

/** Notes name their author by index into the members seeded before (newest member first). */
const DEMO_COMPANIES: Array<v.InferInput<typeof CreateCompanyBody> & { daysAgo: number; notes: Array<{ value: string; author: number; daysAgo: number }> }> = [
  {
    name: 'Harbourside Strata Management',
    email: 'maintenance@harboursidestrata.com.au',
    phone: '+61299551200',
    website: 'https://harboursidestrata.com.au',
    address: '1/92 Military Rd, Neutral Bay NSW 2089',
    daysAgo: 180,
    notes: [
      { value: 'Manages 14 buildings on the lower north shore. Quotes go to the building manager by email, never to residents.', author: 3, daysAgo: 170 },
      { value: 'Purchase order number required on every invoice, otherwise payment is held for 60 days.', author: 2, daysAgo: 120 },
      { value: 'Keys for 22 Ben Boyd Rd are in the lockbox on level 1; code changes monthly, ask Karen.', author: 1, daysAgo: 45 },
      { value: 'Asked for a quote to replace the hot water plant at Kurraba Point before winter.', author: 2, daysAgo: 6 },
    ],
  },
  {
    name: 'Coastline Constructions',
    email: 'site@coastlineconstructions.com.au',
    phone: '+61242271800',
    website: 'https://coastlineconstructions.com.au',
    address: '41 Crown St, Wollongong NSW 2500',
    daysAgo: 95,
    notes: [
      { value: 'Builder doing four townhouse projects in the Illawarra; wants rough-in and fit-off priced separately.', author: 2, daysAgo: 90 },
      { value: 'Site induction required before anyone goes on site at Thirroul. White card and SWMS on file.', author: 1, daysAgo: 30 },
      { value: 'Switchboard upgrades for lots 3 and 4 approved, start after the slab pour on the 14th.', author: 2, daysAgo: 3 },
    ],
  },
  {
    name: 'Inner West Realty',
    email: 'pm@innerwestrealty.com.au',
    phone: '+61295601400',
    address: '302 Illawarra Rd, Marrickville NSW 2204',
    daysAgo: 20,
    notes: [{ value: 'Property managers send urgent repairs by SMS; tenant contact details come with each work order.', author: 2, daysAgo: 18 }],
  },
];

/** Three customer businesses with notes written by the demo members, oldest first. */
export async function seedCompanies(organizationId: string, members: Member[], at = Date.now()): Promise<Company[]> {
  const companies: Company[] = [];
  for (const { daysAgo, notes, ...input } of DEMO_COMPANIES) {
    const company = await createCompany(organizationId, v.parse(CreateCompanyBody, input), new Date(at - daysAgo * DAY));
    for (const note of notes) {
      const author = members[note.author % members.length]!;
      await addCompanyNote(organizationId, company.id, { value: note.value, userId: author.user.id }, new Date(at - note.daysAgo * DAY).toISOString());
    }
    companies.push(company);
  }
  return companies.reverse();
}

/** This resource's part of the demo organization (infra/demo reads it by the list of resources). */
export const demoSeed: DemoSeed = {
  after: ['leads', 'organization'],
  run: async (organizationId, demo) => {
    const companies = await seedCompanies(organizationId, demo.members as Member[]);
    // Leads who work for a customer business: Jack builds for Coastline, Amelia manages for Harbourside.
    const [harbourside, coastline] = [...companies].reverse();
    const leads = demo.leads as Lead[];
    const updated = new Map<string, Lead>();
    for (const [email, company] of [['jack@thompsonbuilds.com.au', coastline], ['amelia@brownproperty.com.au', harbourside]] as const) {
      const lead = leads.find((candidate) => candidate.email === email);
      if (lead && company) updated.set(lead.id, await updateLead(organizationId, lead.id, { companyId: company.id }));
    }
    // New lead objects, not changed ones: the seeds of this wave still read the leads as the wave before made them.
    return { companyIds: companies.map((company) => company.id), leads: leads.map((lead) => updated.get(lead.id) ?? lead) };
  },
};
