import * as v from 'valibot';
import { crudStore } from '#shared/crud/store';
import { faqs } from './collection';
import type { DemoSeed } from '#shared/resource';

const DAY = 24 * 60 * 60 * 1000;

const DEMO_FAQS: Array<v.InferInput<typeof faqs.schemas.CreateBody>> = [
  { question: 'Are you licensed and insured?', answer: 'Yes. All our plumbers and electricians are fully licensed in NSW and we carry $20 million public liability insurance.' },
  { question: 'Which areas do you service?', answer: 'All of Greater Sydney, from Penrith to the Northern Beaches and down to Sutherland.' },
  { question: 'Do you charge a call-out fee?', answer: 'Our call-out fee is $99, waived if you go ahead with the work on the day.' },
  { question: 'Do you offer after-hours emergency service?', answer: 'Yes, 24/7 for burst pipes, gas leaks and electrical hazards.' },
];

/** The demo faqs, oldest first a day apart, through the same store as the API. */
export async function seedFaqs(organizationId: string, at = Date.now()): Promise<number[]> {
  const ids: number[] = [];
  for (const [i, body] of DEMO_FAQS.entries()) ids.push((await crudStore(faqs).create(organizationId, v.parse(faqs.schemas.CreateBody, body), new Date(at - (10 - i) * DAY).toISOString())).id);
  return ids;
}

/** This resource's part of the demo organization (infra/demo reads it by the list of resources). */
export const demoSeed: DemoSeed = { run: async (organizationId) => ({ faqIds: await seedFaqs(organizationId) }) };
