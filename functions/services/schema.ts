import * as v from 'valibot';
import { TradeCategoryIdSchema } from '../../shared/catalog/trade-categories';
import { NonEmptyString, Timestamp, integerString } from '../../shared/schema';
import { ScenarioSummary } from './scenario-schema';

export const DURATION_UNITS = ['MINUTES', 'HOURS', 'DAYS'] as const;
export const PRICING_MODES = ['NONE', 'FIXED', 'HOURLY', 'RANGE', 'CALL_OUT'] as const;
export const TEAM_ASSIGNMENT_METHODS = ['PRIORITY_ORDER', 'ROUND_ROBIN'] as const;

const Integer = v.pipe(v.number(), v.integer());
const MAX_PRICE = 10_000_000;

const Price = (name: string) =>
  v.pipe(
    v.number(`${name} must be a number`),
    v.minValue(0, `${name} must not be negative`),
    v.maxValue(MAX_PRICE, `${name} must be at most ${MAX_PRICE}`),
  );

const Flag = (name: string) => v.optional(v.boolean(`${name} must be a boolean`));
const oneOf = <T extends readonly string[]>(name: string, values: T) => v.picklist(values, `${name} must be one of ${values.join(', ')}`);

/** The price field each pricing mode cannot do without (RANGE needs both ends). */
const PRICE_FIELDS_BY_MODE = {
  NONE: [],
  FIXED: ['fixedPrice'],
  HOURLY: ['hourlyRate'],
  RANGE: ['minPrice', 'maxPrice'],
  CALL_OUT: ['callOutFee'],
} as const satisfies Record<(typeof PRICING_MODES)[number], readonly string[]>;

type PriceField = 'fixedPrice' | 'hourlyRate' | 'callOutFee' | 'minPrice' | 'maxPrice';

const requirePriceFor = (field: PriceField) =>
  v.forward<CreateServiceInput, v.CheckIssue<CreateServiceInput>, [PriceField]>(
    v.check(
      (body) => !(PRICE_FIELDS_BY_MODE[body.pricingMode] as readonly string[]).includes(field) || body[field] !== undefined,
      (issue) => `${field} is required when pricingMode is ${(issue.input as CreateServiceInput).pricingMode}`,
    ),
    [field],
  );

const CreateServiceFields = v.strictObject({
  name: NonEmptyString('name', 200),
  description: v.optional(v.pipe(v.string('description must be a string'), v.trim(), v.maxLength(2000, 'description must be at most 2000 characters')), ''),
  followUpQuestions: v.optional(
    v.pipe(
      v.array(NonEmptyString('each follow-up question', 500), 'followUpQuestions must be an array of strings'),
      v.maxLength(20, 'followUpQuestions may have at most 20 questions'),
    ),
    [],
  ),
  duration: v.pipe(
    v.number('duration must be an integer'),
    v.integer('duration must be an integer'),
    v.minValue(1, 'duration must be at least 1'),
    v.maxValue(10_000, 'duration must be at most 10000'),
  ),
  durationUnit: oneOf('durationUnit', DURATION_UNITS),
  tradeCategoryId: TradeCategoryIdSchema,
  pricingMode: v.optional(oneOf('pricingMode', PRICING_MODES), 'NONE'),
  fixedPrice: v.optional(Price('fixedPrice')),
  hourlyRate: v.optional(Price('hourlyRate')),
  callOutFee: v.optional(Price('callOutFee')),
  minPrice: v.optional(Price('minPrice')),
  maxPrice: v.optional(Price('maxPrice')),
  plusGST: Flag('plusGST'),
  plusMaterials: Flag('plusMaterials'),
  isCustomPriceResponseActive: Flag('isCustomPriceResponseActive'),
  customPriceResponse: v.optional(v.nullable(NonEmptyString('customPriceResponse', 1000))),
  isDisclosePrice: Flag('isDisclosePrice'),
  isActive: Flag('isActive'),
  teamAssignmentMethod: v.optional(oneOf('teamAssignmentMethod', TEAM_ASSIGNMENT_METHODS), 'PRIORITY_ORDER'),
});
type CreateServiceInput = v.InferOutput<typeof CreateServiceFields>;

/**
 * Required: name, duration, durationUnit, tradeCategoryId, plus the price fields the pricingMode
 * needs. Everything else has a default (docs/decisions/api-conventions.md#service-create-required-fields-and-defaults).
 */
export const CreateServiceBody = v.pipe(
  CreateServiceFields,
  requirePriceFor('fixedPrice'),
  requirePriceFor('hourlyRate'),
  requirePriceFor('callOutFee'),
  requirePriceFor('minPrice'),
  requirePriceFor('maxPrice'),
  v.forward(
    v.check((body) => body.minPrice === undefined || body.maxPrice === undefined || body.minPrice <= body.maxPrice, 'maxPrice must not be less than minPrice'),
    ['maxPrice'],
  ),
  v.forward(
    v.check((body) => !body.isCustomPriceResponseActive || !!body.customPriceResponse, 'customPriceResponse is required when isCustomPriceResponseActive is true'),
    ['customPriceResponse'],
  ),
);
export type CreateServiceBody = v.InferOutput<typeof CreateServiceBody>;

export const Service = v.object({
  id: Integer,
  name: v.string(),
  description: v.string(),
  duration: Integer,
  durationUnit: v.picklist(DURATION_UNITS),
  followUpQuestions: v.array(v.string()),
  tradeCategoryId: Integer,
  pricingMode: v.picklist(PRICING_MODES),
  fixedPrice: v.nullable(v.number()),
  hourlyRate: v.nullable(v.number()),
  callOutFee: v.nullable(v.number()),
  minPrice: v.nullable(v.number()),
  maxPrice: v.nullable(v.number()),
  plusGST: v.boolean(),
  plusMaterials: v.boolean(),
  isCustomPriceResponseActive: v.boolean(),
  customPriceResponse: v.nullable(v.string()),
  isDisclosePrice: v.boolean(),
  isActive: v.boolean(),
  teamAssignmentMethod: v.picklist(TEAM_ASSIGNMENT_METHODS),
  scenario: ScenarioSummary,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Service = v.InferOutput<typeof Service>;

export const ServiceIdPath = v.object({ serviceId: integerString('serviceId') });
export const ServiceResponse = v.object({ service: Service });

/** A service as the organization services listing shows it. */
export const CategoryService = v.object({
  id: Integer,
  name: v.string(),
  description: v.string(),
  duration: Integer,
  followUpQuestions: v.array(v.string()),
  tradeCategoryId: Integer,
  createdAt: Timestamp,
  isActive: v.boolean(),
});
export type CategoryService = v.InferOutput<typeof CategoryService>;

export const ServiceCategory = v.object({
  id: Integer,
  name: v.string(),
  type: v.string(),
  services: v.array(CategoryService),
});
export type ServiceCategory = v.InferOutput<typeof ServiceCategory>;

export const OrganizationServices = v.object({
  categories: v.array(ServiceCategory),
  totalCategories: Integer,
  totalServices: Integer,
});
export type OrganizationServices = v.InferOutput<typeof OrganizationServices>;
