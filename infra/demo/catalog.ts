import * as v from 'valibot';
import { createProduct } from '../../functions/products/rules';
import { createTransfer } from '../../functions/transfers/rules';
import { faqs } from '../../functions/faqs/collection';
import { textCollectionStore } from '../../shared/text-collection-store';
import { policies } from '../../functions/policies/collection';
import { CreateProductBody } from '../../functions/products/schema';
import { CreateTransferBody } from '../../functions/transfers/schema';

const DAY = 24 * 60 * 60 * 1000;

/** Written as API requests and validated as such, so the demo cannot hold what the API would refuse. */
const DEMO_PRODUCTS: Array<v.InferInput<typeof CreateProductBody>> = [
  {
    name: 'Hot water system install',
    description: 'Supply and install of a gas, electric or heat-pump storage hot water system, including removal of the old unit.',
    response: 'We supply and install most major brands. Price depends on the system type and size; a plumber can confirm on site.',
    faqs: [
      { question: 'Do you take away the old system?', answer: 'Yes, removal and disposal of the old unit are included.' },
      { question: 'Can you install a heat pump?', answer: 'Yes, and we can help you check whether a state rebate applies.' },
    ],
    tradeCategoryId: 1,
    pricingType: 'RANGE',
    minPrice: 1200,
    maxPrice: 3500,
    isDisclosePrice: true,
  },
  {
    name: 'Blocked drain clear',
    description: 'Clearing a single blocked sink, shower, toilet or outdoor drain with an electric eel.',
    response: 'A standard blocked drain clear is a fixed price for the first hour on site.',
    faqs: [{ question: 'What if the drain needs a camera inspection?', answer: 'We quote a CCTV inspection separately before starting.' }],
    tradeCategoryId: 1,
    pricingType: 'FIXED',
    price: 220,
    isDisclosePrice: true,
  },
  {
    name: 'Free quote',
    description: 'An on-site visit to measure up and quote larger jobs such as renovations and re-pipes.',
    response: 'Quotes are free for jobs over $1,000. We will book a time for someone to come out and measure up.',
    tradeCategoryId: 12,
    pricingType: 'NONE',
  },
  {
    name: 'Smoke alarm replacement',
    description: 'Replacing a hard-wired smoke alarm with a photoelectric, interconnected model.',
    response: 'Each hard-wired smoke alarm is replaced for a fixed price, including the alarm.',
    tradeCategoryId: 2,
    pricingType: 'FIXED',
    price: 129,
    isDisclosePrice: true,
  },
  {
    name: 'Split system air conditioner install',
    description: 'Back-to-back install of a split system up to 7.1 kW, supplied by us or by the customer.',
    response: 'Installation price depends on the unit size and how far the outdoor unit sits from the indoor one.',
    tradeCategoryId: 3,
    pricingType: 'RANGE',
    minPrice: 1800,
    maxPrice: 4200,
    isDisclosePrice: false,
  },
  {
    name: 'Termite inspection',
    description: 'A visual and thermal-camera termite inspection with a written report (Australian Standard AS 3660.2).',
    response: 'We are not taking termite inspections at the moment; we can refer you to a pest controller.',
    tradeCategoryId: 9,
    pricingType: 'FIXED',
    price: 295,
    isActive: false,
  },
];

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

const DEMO_FAQS: Array<v.InferInput<typeof faqs.schemas.CreateBody>> = [
  { question: 'Are you licensed and insured?', answer: 'Yes. All our plumbers and electricians are fully licensed in NSW and we carry $20 million public liability insurance.' },
  { question: 'Which areas do you service?', answer: 'All of Greater Sydney, from Penrith to the Northern Beaches and down to Sutherland.' },
  { question: 'Do you charge a call-out fee?', answer: 'Our call-out fee is $99, waived if you go ahead with the work on the day.' },
  { question: 'Do you offer after-hours emergency service?', answer: 'Yes, 24/7 for burst pipes, gas leaks and electrical hazards.' },
];

export interface DemoCatalog {
  productIds: number[];
  transferIds: number[];
  policyIds: number[];
  faqIds: number[];
}

/**
 * Products of every pricing type, transfer rules (one linked to `scenarioId` when given), policies and FAQs,
 * created oldest first a day apart, through the same domain and repository functions as the API.
 */
export async function seedCatalog(organizationId: string, scenarioId: number | null = null, at = Date.now()): Promise<DemoCatalog> {
  const day = (daysAgo: number) => new Date(at - daysAgo * DAY).toISOString();
  const productIds: number[] = [];
  for (const [i, body] of DEMO_PRODUCTS.entries()) {
    productIds.push((await createProduct(organizationId, v.parse(CreateProductBody, body), day(30 - i))).id);
  }
  const transferIds: number[] = [];
  for (const [i, { linkScenario, ...body }] of DEMO_TRANSFERS.entries()) {
    const request = v.parse(CreateTransferBody, { ...body, scenarioId: linkScenario ? scenarioId : null });
    transferIds.push((await createTransfer(organizationId, request, day(20 - i))).id);
  }
  const policyIds: number[] = [];
  for (const [i, policy] of DEMO_POLICIES.entries()) policyIds.push((await textCollectionStore(policies).create(organizationId, v.parse(policies.schemas.CreateBody, policy), day(60 - i))).id);
  const faqIds: number[] = [];
  for (const [i, body] of DEMO_FAQS.entries()) faqIds.push((await textCollectionStore(faqs).create(organizationId, v.parse(faqs.schemas.CreateBody, body), day(10 - i))).id);
  return { productIds, transferIds, policyIds, faqIds };
}
