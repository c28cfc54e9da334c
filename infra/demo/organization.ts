import { createApiKey } from '../../shared/repositories/api-keys';
import { createOrganization } from '../../shared/repositories/organizations';
import { seedDemoData } from './index';

export interface CreatedOrganization {
  organizationId: string;
  apiKey: string;
  demo?: Record<string, unknown>;
}

/** An organization with one API key, and with `demo`, a realistic data set for every endpoint. */
export async function createOrganizationWithKey(name: string, { demo = false } = {}): Promise<CreatedOrganization> {
  // The demo business is in Sydney; an organization made without demo data starts in UTC.
  const organization = await createOrganization(name, demo ? 'Australia/Sydney' : 'UTC');
  const { token } = await createApiKey(organization.id);
  if (!demo) return { organizationId: organization.id, apiKey: token };
  return { organizationId: organization.id, apiKey: token, demo: await seedDemoData(organization.id) };
}
