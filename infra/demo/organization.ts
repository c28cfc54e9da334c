import type { UsagePlanName } from '#shared/auth/usage-plans';
import { createApiKey } from '#shared/auth/api-keys';
import { createOrganization } from '../../functions/organization/store';
import { seedDemoData } from './index';

export interface CreatedOrganization {
  organizationId: string;
  /** The first key's id, to revoke or rotate it later; its secret is `apiKey`, shown only here. */
  keyId: string;
  apiKey: string;
  demo?: Record<string, unknown>;
}

/** An organization with one API key, and with `demo`, a realistic data set for every endpoint. */
export async function createOrganizationWithKey(name: string, { demo = false, usagePlan }: { demo?: boolean; usagePlan?: UsagePlanName } = {}): Promise<CreatedOrganization> {
  // The demo business is in Sydney; an organization made without demo data starts in UTC.
  const organization = await createOrganization(name, demo ? 'Australia/Sydney' : 'UTC', usagePlan);
  const { key, token } = await createApiKey(organization.id);
  const created = { organizationId: organization.id, keyId: key.keyId, apiKey: token };
  return demo ? { ...created, demo: await seedDemoData(organization.id) } : created;
}
