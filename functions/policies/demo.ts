import * as v from 'valibot';
import { crudStore } from '#shared/crud/store';
import { policies } from './collection';
import type { DemoSeed } from '#shared/resource';

const DAY = 24 * 60 * 60 * 1000;

const DEMO_POLICIES: v.InferInput<typeof policies.schemas.CreateBody>[] = [
  {
    title: 'Cancellation policy',
    content: 'Bookings can be cancelled or moved free of charge up to 24 hours before the appointment. Later cancellations incur a $79 call-out fee.',
  },
  {
    title: 'Workmanship warranty',
    content: 'All labour carries a 6-year workmanship warranty. Parts are covered by the manufacturer’s warranty, which we register for you.',
  },
  {
    title: 'Payment terms',
    content: 'Invoices are due within 7 days. We accept card, bank transfer and cash; a 1.5% surcharge applies to credit cards.',
  },
  {
    title: 'After-hours call-outs',
    content: 'Call-outs between 6pm and 7am, on weekends and on public holidays are charged at 1.5 times the standard rate.',
    isActive: false,
  },
];

/** The demo policies, oldest first a day apart, through the same store as the API. */
export async function seedPolicies(organizationId: string, at = Date.now()): Promise<number[]> {
  const ids: number[] = [];
  for (const [i, body] of DEMO_POLICIES.entries()) ids.push((await crudStore(policies).create(organizationId, v.parse(policies.schemas.CreateBody, body), new Date(at - (60 - i) * DAY).toISOString())).id);
  return ids;
}

/** This resource's part of the demo organization (infra/demo reads it by the list of resources). */
export const demoSeed: DemoSeed = { run: async (organizationId) => ({ policyIds: await seedPolicies(organizationId) }) };
