import * as v from 'valibot';
import { createCompany } from './store';
import { addCompanyNote } from './notes-store';
import { CreateCompanyBody, type Company } from './schema';
import type { Member } from '../organization/member-schema';
import { updateLead } from '../leads/rules';
import type { Lead } from '../leads/schema';
import type { DemoSeed } from '#shared/resource';
import demoCompanies from './demo-companies.json' with { type: 'json' };

const DAY = 24 * 60 * 60 * 1000;

/** A company of the demo with its notes; a note names its author by index into the members seeded before (newest member first). */
type DemoCompany = v.InferInput<typeof CreateCompanyBody> & { daysAgo: number; notes: Array<{ value: string; author: number; daysAgo: number }> };
const DEMO_COMPANIES: DemoCompany[] = demoCompanies;

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
