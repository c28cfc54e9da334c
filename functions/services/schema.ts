import * as v from 'valibot';
import { TradeCategoryIdSchema } from './trade-categories';
import { booleanString } from '../../shared/filters';
import { defined } from '../../shared/store/changes';
import { Money, MONEY_RULE, NonEmptyString, OptionalText, PageQuery, Timestamp, deletedSchema, integerString, pageSchema, partialUpdateBody } from '../../shared/schema';
import { ScenarioSummary } from './scenario-schema';

export const DURATION_UNITS = ['MINUTES', 'HOURS', 'DAYS'] as const;
export const PRICING_MODES = ['NONE', 'FIXED', 'HOURLY', 'RANGE', 'CALL_OUT'] as const;
export const TEAM_ASSIGNMENT_METHODS = ['PRIORITY_ORDER', 'ROUND_ROBIN'] as const;

const Integer = v.pipe(v.number(), v.integer());
const MAX_PRICE = 10_000_000;

const Price = (name: string) => Money(name, MAX_PRICE);
/** The top of a range, with the rule it keeps against the bottom (SERVICE_RULES), which no schema keyword states. */
const MaxPrice = v.pipe(Price('maxPrice'), v.description(`${MONEY_RULE} Not less than \`minPrice\` when both are set.`));

const Flag = (name: string) => v.optional(v.boolean(`${name} must be a boolean`));
const oneOf = <T extends readonly string[]>(name: string, values: T) => v.picklist(values, `${name} must be one of ${values.join(', ')}`);

/** The price field each pricing type cannot do without (RANGE needs both ends). */
const PRICE_FIELDS_BY_MODE = {
  NONE: [],
  FIXED: ['price'],
  HOURLY: ['hourlyRate'],
  RANGE: ['minPrice', 'maxPrice'],
  CALL_OUT: ['callOutFee'],
} as const satisfies Record<(typeof PRICING_MODES)[number], readonly string[]>;

type PriceField = 'price' | 'hourlyRate' | 'callOutFee' | 'minPrice' | 'maxPrice';

/** The fields the rules across fields read; a price left out or cleared is undefined or null. */
type PricedRecord = { pricingType: (typeof PRICING_MODES)[number]; isCustomPriceResponseActive?: boolean; customPriceResponse?: string | null } & { [F in PriceField]?: number | null };

/**
 * The rules across a service's fields, each with the field it names: checked on a create body and on the merged
 * record of a PATCH alike, so a partial update cannot break them.
 */
export const SERVICE_RULES: Array<{ field: string; holds: (service: PricedRecord) => boolean; message: (service: PricedRecord) => string }> = [
  ...(['price', 'hourlyRate', 'callOutFee', 'minPrice', 'maxPrice'] as const).map((field) => ({
    field,
    holds: (service: PricedRecord) => !(PRICE_FIELDS_BY_MODE[service.pricingType] as readonly string[]).includes(field) || service[field] != null,
    message: (service: PricedRecord) => `${field} is required when pricingType is ${service.pricingType}`,
  })),
  {
    field: 'maxPrice',
    holds: (service) => service.minPrice == null || service.maxPrice == null || service.minPrice <= service.maxPrice,
    message: () => 'maxPrice must not be less than minPrice',
  },
  {
    field: 'customPriceResponse',
    holds: (service) => !service.isCustomPriceResponseActive || !!service.customPriceResponse,
    message: () => 'customPriceResponse is required when isCustomPriceResponseActive is true',
  },
];

/** A rule as a check of a body, reported at its field. */
const ruleCheck = ({ field, holds, message }: (typeof SERVICE_RULES)[number]) =>
  v.forward<CreateServiceInput, v.CheckIssue<CreateServiceInput>, [PriceField]>(
    v.check<CreateServiceInput, (issue: v.CheckIssue<CreateServiceInput>) => string>(holds, (issue) => message(issue.input)),
    [field as PriceField],
  );

/** The members who take the service, each a member of the organization (checked in rules.ts); none: every member. */
const MemberIds = v.pipe(
  v.array(
    v.pipe(v.number('each of memberIds must be a member id'), v.integer('each of memberIds must be a member id'), v.minValue(1, 'each of memberIds must be a member id'), v.maxValue(2_147_483_647, 'each of memberIds must be a member id')),
    'memberIds must be an array of member ids',
  ),
  v.maxLength(100, 'memberIds may name at most 100 members'),
  v.check((ids) => new Set(ids).size === ids.length, 'memberIds must not repeat a member'),
);

/**
 * The names services took before they shared products' price names, still accepted on write and answered under the
 * new ones (docs/decisions/api-conventions.md#one-set-of-price-names).
 */
const OLDER_PRICE_NAMES = { pricingMode: 'pricingType', fixedPrice: 'price' } as const;

const olderPriceNames = <S extends v.GenericSchema>(price: (name: string) => S) => ({
  pricingMode: v.optional(v.pipe(oneOf('pricingMode', PRICING_MODES), v.description('The older name of `pricingType`.'), v.metadata({ jsonSchema: { deprecated: true } }))),
  fixedPrice: v.optional(v.pipe(price('fixedPrice'), v.description('The older name of `price`.'), v.metadata({ jsonSchema: { deprecated: true } }))),
});

/** A field sent under both its names is refused, named by the older one. */
const oneNamePerField = <T extends { pricingMode?: unknown; fixedPrice?: unknown; pricingType?: unknown; price?: unknown }>() =>
  (Object.entries(OLDER_PRICE_NAMES) as [keyof typeof OLDER_PRICE_NAMES, 'pricingType' | 'price'][]).map((entry) => {
    const [older, name] = entry;
    return v.forward<T, v.CheckIssue<T>, [typeof older]>(
      v.check((body) => body[older] === undefined || body[name] === undefined, `${older} is the older name of ${name}: send one of them`),
      [older] as never,
    );
  }) as [v.GenericValidation<T>, v.GenericValidation<T>];

/** The body under the current names. */
function fromOlderNames<T extends { pricingMode?: unknown; fixedPrice?: unknown; price?: unknown }>({ pricingMode: _mode, fixedPrice, ...body }: T) {
  return fixedPrice === undefined ? body : { ...body, price: fixedPrice as T['price'] };
}

const CreateServiceFields = v.strictObject({
  name: NonEmptyString('name', 200),
  description: v.optional(OptionalText('description', 2000), ''),
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
  // Defaulted after the older name is read (CreateServiceBody), so the default is only documented here.
  pricingType: v.optional(v.pipe(oneOf('pricingType', PRICING_MODES), v.metadata({ jsonSchema: { default: 'NONE' } }))),
  price: v.optional(Price('price')),
  hourlyRate: v.optional(Price('hourlyRate')),
  callOutFee: v.optional(Price('callOutFee')),
  minPrice: v.optional(Price('minPrice')),
  maxPrice: v.optional(MaxPrice),
  plusGST: Flag('plusGST'),
  plusMaterials: Flag('plusMaterials'),
  isCustomPriceResponseActive: Flag('isCustomPriceResponseActive'),
  customPriceResponse: v.optional(v.nullable(NonEmptyString('customPriceResponse', 1000))),
  isDisclosePrice: Flag('isDisclosePrice'),
  isActive: Flag('isActive'),
  teamAssignmentMethod: v.optional(oneOf('teamAssignmentMethod', TEAM_ASSIGNMENT_METHODS), 'PRIORITY_ORDER'),
  memberIds: v.optional(MemberIds, []),
  ...olderPriceNames(Price),
});
type CreateServiceInput = Omit<v.InferOutput<typeof CreateServiceFields>, 'pricingType' | keyof typeof OLDER_PRICE_NAMES> & { pricingType: (typeof PRICING_MODES)[number] };

/**
 * Required: name, duration, durationUnit, tradeCategoryId, plus the price fields the pricingType
 * needs. Everything else has a default (docs/decisions/api-conventions.md#service-create-required-fields-and-defaults).
 */
// Every rule is a check of its own (the tuple type only spares v.pipe's overloads the list's length).
export const CreateServiceBody = v.pipe(
  CreateServiceFields,
  ...oneNamePerField<v.InferOutput<typeof CreateServiceFields>>(),
  v.transform(({ pricingType, ...body }): CreateServiceInput => ({ ...fromOlderNames(body), pricingType: pricingType ?? body.pricingMode ?? 'NONE' })),
  ...(SERVICE_RULES.map(ruleCheck) as [ReturnType<typeof ruleCheck>]),
);
export type CreateServiceBody = v.InferOutput<typeof CreateServiceBody>;

const nullablePrice = (field: string) => v.nullable(Price(field));

/**
 * A PATCH body: any non-empty subset of the create's fields. A price or `customPriceResponse` sent as null is
 * cleared; the rules across fields are checked on the merged record (rules.ts), as the create checks its body.
 */
const UpdateServiceFields = partialUpdateBody({
  ...CreateServiceFields.entries,
  description: OptionalText('description', 2000),
  followUpQuestions: CreateServiceFields.entries.followUpQuestions.wrapped,
  pricingType: oneOf('pricingType', PRICING_MODES),
  price: nullablePrice('price'),
  hourlyRate: nullablePrice('hourlyRate'),
  callOutFee: nullablePrice('callOutFee'),
  minPrice: nullablePrice('minPrice'),
  maxPrice: v.nullable(MaxPrice),
  plusGST: v.boolean('plusGST must be a boolean'),
  plusMaterials: v.boolean('plusMaterials must be a boolean'),
  isCustomPriceResponseActive: v.boolean('isCustomPriceResponseActive must be a boolean'),
  customPriceResponse: v.nullable(NonEmptyString('customPriceResponse', 1000)),
  isDisclosePrice: v.boolean('isDisclosePrice must be a boolean'),
  isActive: v.boolean('isActive must be a boolean'),
  teamAssignmentMethod: oneOf('teamAssignmentMethod', TEAM_ASSIGNMENT_METHODS),
  memberIds: MemberIds,
  ...olderPriceNames(nullablePrice),
});
export const UpdateServiceBody = v.pipe(
  UpdateServiceFields,
  ...oneNamePerField<v.InferOutput<typeof UpdateServiceFields>>(),
  v.transform(({ pricingType, ...body }) => ({ ...fromOlderNames(body), ...defined({ pricingType: pricingType ?? body.pricingMode }) })),
);
export type ServiceChanges = v.InferOutput<typeof UpdateServiceBody>;

export const Service = v.object({
  id: Integer,
  name: v.string(),
  description: v.string(),
  duration: Integer,
  durationUnit: v.picklist(DURATION_UNITS),
  followUpQuestions: v.array(v.string()),
  tradeCategoryId: Integer,
  pricingType: v.picklist(PRICING_MODES),
  /** FIXED: the price; otherwise null unless kept from before. */
  price: v.nullable(v.number()),
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
  /** The members availability offers for the service; empty (as a service stored before it had them): every member. */
  memberIds: v.optional(v.array(Integer), []),
  scenario: ScenarioSummary,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Service = v.InferOutput<typeof Service>;

export const ServiceIdPath = v.object({ serviceId: integerString('serviceId') });
export const ServiceResponse = v.object({ service: Service });
export const ServiceDeleted = deletedSchema(Integer);

/** The list's filters: a catalog trade category (another id answers 400), active or not. */
export const ServiceListQuery = v.object({
  ...PageQuery.entries,
  tradeCategoryId: v.optional(v.pipe(integerString('tradeCategoryId'), TradeCategoryIdSchema)),
  isActive: v.optional(booleanString('isActive')),
});
export type ServiceListQuery = v.InferOutput<typeof ServiceListQuery>;
export const ServicePage = pageSchema('services', Service);

/** A service as the organization services listing shows it: the spec's fields, then its duration unit and pricing. */
export const CategoryService = v.object({
  id: Integer,
  name: v.string(),
  description: v.string(),
  duration: Integer,
  followUpQuestions: v.array(v.string()),
  tradeCategoryId: Integer,
  createdAt: Timestamp,
  isActive: v.boolean(),
  durationUnit: Service.entries.durationUnit,
  pricingType: Service.entries.pricingType,
  price: Service.entries.price,
  hourlyRate: Service.entries.hourlyRate,
  callOutFee: Service.entries.callOutFee,
  minPrice: Service.entries.minPrice,
  maxPrice: Service.entries.maxPrice,
  plusGST: v.boolean(),
  plusMaterials: v.boolean(),
  isCustomPriceResponseActive: v.boolean(),
  customPriceResponse: Service.entries.customPriceResponse,
  isDisclosePrice: v.boolean(),
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
