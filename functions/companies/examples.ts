import { EXAMPLE_COMPANY_ID as COMPANY_ID } from './notes';

/** Examples of the company's components in the OpenAPI document (see functions/leads/examples.ts). */

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
