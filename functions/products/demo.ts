import * as v from 'valibot';
import { createProduct } from './rules';
import { CreateProductBody } from './schema';
import type { DemoSeed } from '#shared/resource';

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

/** Products of every pricing type, oldest first a day apart, through the same rules as the API. */
export async function seedProducts(organizationId: string, at = Date.now()): Promise<number[]> {
  const productIds: number[] = [];
  for (const [i, body] of DEMO_PRODUCTS.entries()) {
    productIds.push((await createProduct(organizationId, v.parse(CreateProductBody, body), new Date(at - (30 - i) * DAY).toISOString())).id);
  }
  return productIds;
}

/** This resource's part of the demo organization (infra/demo reads it by the list of resources). */
export const demoSeed: DemoSeed = { run: async (organizationId) => ({ productIds: await seedProducts(organizationId) }) };
