import { TRADE_CATEGORIES } from './trade-categories';

/** Examples of the service's and scenario's components in the OpenAPI document (see functions/leads/examples.ts). */
export const scenarioQuestion = {
  question: 'Which drain is blocked (sink, toilet, shower or outside)?',
  answerOptions: [],
};

/** The catalog's first category, as the catalog lists it. */
export const tradeCategory = TRADE_CATEGORIES[0];

export const scenarioOutcome = { type: 'continueCall', property1: null, property2: null };

export const categoryService = {
  id: 1,
  name: 'Blocked drain clearing',
  description: 'Clearing blocked sinks, toilets and stormwater drains with an electric eel or high-pressure jetter.',
  duration: 90,
  followUpQuestions: ['Which drain is blocked (sink, toilet, shower or outside)?', 'Is water overflowing right now?'],
  tradeCategoryId: 1,
  createdAt: '2026-09-14T22:10:41.006Z',
  isActive: true,
  durationUnit: 'MINUTES',
  pricingType: 'CALL_OUT',
  price: null,
  hourlyRate: 145,
  callOutFee: 99,
  minPrice: null,
  maxPrice: null,
  plusGST: true,
  plusMaterials: false,
  isCustomPriceResponseActive: false,
  customPriceResponse: null,
  isDisclosePrice: true,
};

export const serviceCategory = { id: 1, name: 'Plumbing', type: 'SERVICE', services: [categoryService] };

export const service = {
  ...categoryService,
  teamAssignmentMethod: 'ROUND_ROBIN',
  memberIds: [2, 3],
  scenario: { id: 1, response: '', questions: [scenarioQuestion], outcome: scenarioOutcome },
  updatedAt: '2026-09-14T22:10:41.006Z',
};

export const scenario = {
  id: 1,
  name: 'Blocked drain clearing',
  prompt: '',
  response: '',
  isActive: true,
  questions: [scenarioQuestion],
  outcome: scenarioOutcome,
  tradeServiceId: 1,
  createdAt: '2026-09-14T22:10:41.006Z',
  updatedAt: '2026-09-14T22:10:41.006Z',
};
