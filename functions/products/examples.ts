/** The product's example in the OpenAPI document (see functions/leads/examples.ts). */
export const product = {
  id: 3,
  name: 'Hot water system install',
  description: 'Supply and install of a 250 L electric storage hot water system, old unit removed.',
  response: 'A standard electric hot water install starts from $1,650 including the unit.',
  tradeCategoryId: 1,
  pricingType: 'RANGE',
  price: null,
  minPrice: 1650,
  maxPrice: 2400,
  isDisclosePrice: true,
  faqs: [{ question: 'How long does an install take?', answer: 'Usually three to four hours.' }],
  isActive: true,
  createdAt: '2026-10-02T23:41:05.220Z',
  updatedAt: '2026-11-18T01:02:33.874Z',
};
