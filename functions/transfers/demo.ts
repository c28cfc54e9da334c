import * as v from 'valibot';
import { createTransfer } from './rules';
import { CreateTransferBody } from './schema';
import type { Service } from '../services/schema';
import type { DemoSeed } from '#shared/resource';

const DAY = 24 * 60 * 60 * 1000;

const DEMO_TRANSFERS: Array<v.InferInput<typeof CreateTransferBody> & { linkScenario?: boolean }> = [
  {
    label: 'Emergency plumbing',
    name: 'Emergency plumber on call',
    method: 'WARM',
    destinationType: 'PHONE_NUMBER',
    destination: '+61298765432',
    conditions: 'The caller reports a burst pipe, water overflowing, sewage coming up through a drain, or a gas smell.',
    summaryFormat: 'URGENT: {name} needs help with {topic}. Summary: {summary}',
    settings: { ignore_business_hours: true },
    linkScenario: true,
  },
  {
    label: 'Quotes and bookings',
    method: 'COLD',
    destinationType: 'DEPARTMENT',
    destination: 'Office',
    conditions: 'The caller asks to speak to a person about a quote, or wants to change an existing booking.',
  },
  {
    label: 'Invoices and payments',
    method: 'WARM',
    destinationType: 'DEPARTMENT',
    destination: 'Accounts',
    conditions: 'The caller has a question about an invoice, a payment or a refund.',
    isEnabled: false,
  },
];

/** Transfer rules, oldest first a day apart; the one marked `linkScenario` names `scenarioId` when given. */
export async function seedTransfers(organizationId: string, scenarioId: number | null = null, at = Date.now()): Promise<number[]> {
  const transferIds: number[] = [];
  for (const [i, { linkScenario, ...body }] of DEMO_TRANSFERS.entries()) {
    const request = v.parse(CreateTransferBody, { ...body, scenarioId: linkScenario ? scenarioId : null });
    transferIds.push((await createTransfer(organizationId, request, new Date(at - (20 - i) * DAY).toISOString())).id);
  }
  return transferIds;
}

/** This resource's part of the demo organization (infra/demo reads it by the list of resources). */
export const demoSeed: DemoSeed = {
  after: ['services'],
  // The blocked-drain transfer hands over calls of that service's scenario.
  run: async (organizationId, demo) => {
    const scenarioId = (demo.services as Service[]).find((service) => service.name === 'Blocked drain clearing')?.scenario.id ?? null;
    return { transferIds: await seedTransfers(organizationId, scenarioId) };
  },
};
