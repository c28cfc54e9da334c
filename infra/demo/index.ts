import { updateLead } from '../../functions/leads/rules';
import { seedAppointments } from './appointments';
import { seedCatalog } from './catalog';
import { seedCompanies } from './companies';
import { seedInquiries } from './inquiries';
import { seedLeads } from './leads';
import { seedMembers } from './members';
import { seedServices } from './services';

/**
 * Fills an organization with a realistic Australian-trades data set that exercises every endpoint.
 * Seeders run in order (inquiries need leads, SMS needs members) and each adds its ids to the summary.
 */
export async function seedDemoData(organizationId: string): Promise<Record<string, unknown>> {
  const leads = await seedLeads(organizationId);
  const members = await seedMembers(organizationId);
  const inquiries = await seedInquiries(organizationId, leads, members.map((member) => member.user));
  const companies = await seedCompanies(organizationId, members);
  // Leads who work for a customer business: Jack builds for Coastline, Amelia manages for Harbourside.
  const [harbourside, coastline] = [...companies].reverse();
  for (const [email, company] of [['jack@thompsonbuilds.com.au', coastline], ['amelia@brownproperty.com.au', harbourside]] as const) {
    const lead = leads.find((candidate) => candidate.email === email);
    if (lead && company) Object.assign(lead, await updateLead(organizationId, lead.id, { companyId: company.id }));
  }
  const appointments = await seedAppointments(organizationId, leads, members);
  const services = await seedServices(organizationId);
  const catalog = await seedCatalog(organizationId, services.find((service) => service.name === 'Blocked drain clearing')?.scenario.id ?? null);
  return {
    leadIds: leads.map((lead) => lead.id),
    memberIds: members.map((member) => member.id),
    inquiryIds: inquiries.inquiryIds,
    smsThreadId: inquiries.smsThreadId,
    userIds: members.map((member) => member.user.id),
    companyIds: companies.map((company) => company.id),
    appointmentIds: appointments.map((appointment) => appointment.id),
    serviceIds: services.map((service) => service.id),
    scenarioIds: services.map((service) => service.scenario.id),
    ...catalog,
  };
}
