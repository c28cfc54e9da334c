import { USER_ID } from '../organization/examples';

/** Examples of the company's components in the OpenAPI document (see functions/leads/examples.ts). */
const COMPANY_ID = 'company_01JA4N8S2T6V0W4X8Y2Z6A0B4C';

export const company = {
  id: COMPANY_ID,
  name: 'Harbourside Strata Management',
  website: 'https://harboursidestrata.com.au',
  email: 'maintenance@harboursidestrata.com.au',
  phone: '+61299551200',
  address: '1/92 Military Rd, Neutral Bay NSW 2089',
  createdAt: '2026-05-26T01:20:00.000Z',
  updatedAt: '2026-05-26T01:20:00.000Z',
};

export const companyNote = {
  id: 4,
  value: 'Asked for a quote to replace the hot water plant at Kurraba Point before winter.',
  companyId: COMPANY_ID,
  userId: USER_ID,
  createdAt: '2026-11-14T03:20:00.000Z',
  updatedAt: '2026-11-14T03:20:00.000Z',
};
