import * as v from 'valibot';
import { TradeCategoryIdSchema } from './trade-categories';
import { booleanString } from '#shared/filters';
import { defined } from '#shared/store/changes';
import { PageQuery, Timestamp, deletedSchema, integerString, pageSchema, partialUpdateBody } from '#shared/schema';
import { Integer, oneOf, Price, PRICING_MODES, serviceEntity } from './attributes';

export { DURATION_UNITS, PRICING_MODES, TEAM_ASSIGNMENT_METHODS } from './attributes';

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

/**
 * The names services took before they shared products' price names, still accepted on write and answered under the
 * new ones (docs/decisions/services-and-products.md#one-set-of-price-names).
 */
const OLDER_PRICE_NAMES = { pricingMode: 'pricingType', fixedPrice: 'price' } as const;

const olderPriceNames = <S extends v.GenericSchema>(price: (name: string) => S) => ({
  pricingMode: v.optional(v.pipe(oneOf('pricingMode', PRICING_MODES), v.description('The older name of `pricingType`: send one of them, never both.'), v.metadata({ jsonSchema: { deprecated: true } }))),
  fixedPrice: v.optional(v.pipe(price('fixedPrice'), v.description('The older name of `price`: send one of them, never both.'), v.metadata({ jsonSchema: { deprecated: true } }))),
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

/** The same rule as the document states it: with a field's older name, its new name may not be there. */
const oneNamePerFieldStated = <T>() =>
  v.metadata<T, Record<string, unknown>>({
    jsonSchema: { dependentSchemas: Object.fromEntries(Object.entries(OLDER_PRICE_NAMES).map(([older, name]) => [older, { properties: { [name]: false } }])) },
  });

/** The body under the current names. */
function fromOlderNames<T extends { pricingMode?: unknown; fixedPrice?: unknown; price?: unknown }>({ pricingMode: _mode, fixedPrice, ...body }: T) {
  return fixedPrice === undefined ? body : { ...body, price: fixedPrice as T['price'] };
}

const CreateServiceFields = v.strictObject({
  ...serviceEntity.create,
  // Defaulted after the older name is read (CreateServiceBody), so the default is only documented here.
  pricingType: v.optional(v.pipe(serviceEntity.change.pricingType, v.metadata({ jsonSchema: { default: serviceEntity.defaults.pricingType } }))),
  ...olderPriceNames(Price),
});
type CreateServiceInput = Omit<v.InferOutput<typeof CreateServiceFields>, 'pricingType' | keyof typeof OLDER_PRICE_NAMES> & { pricingType: (typeof PRICING_MODES)[number] };

/**
 * Required: name, duration, durationUnit, tradeCategoryId, plus the price fields the pricingType
 * needs. Everything else has a default (docs/decisions/services-and-products.md#service-create-required-fields-and-defaults).
 */
// Every rule is a check of its own (the tuple type only spares v.pipe's overloads the list's length).
export const CreateServiceBody = v.pipe(
  CreateServiceFields,
  ...oneNamePerField<v.InferOutput<typeof CreateServiceFields>>(),
  oneNamePerFieldStated<v.InferOutput<typeof CreateServiceFields>>(),
  v.transform(({ pricingType, ...body }): CreateServiceInput => ({ ...fromOlderNames(body), pricingType: pricingType ?? body.pricingMode ?? serviceEntity.defaults.pricingType! })),
  ...(SERVICE_RULES.map(ruleCheck) as [ReturnType<typeof ruleCheck>]),
);
export type CreateServiceBody = v.InferOutput<typeof CreateServiceBody>;

const nullablePrice = (field: string) => v.nullable(Price(field));

/**
 * A PATCH body: any non-empty subset of the create's fields. A price or `customPriceResponse` sent as null is
 * cleared; the rules across fields are checked on the merged record (rules.ts), as the create checks its body.
 */
const UpdateServiceFields = partialUpdateBody({ ...serviceEntity.change, ...olderPriceNames(nullablePrice) });
export const UpdateServiceBody = v.pipe(
  UpdateServiceFields,
  ...oneNamePerField<v.InferOutput<typeof UpdateServiceFields>>(),
  oneNamePerFieldStated<v.InferOutput<typeof UpdateServiceFields>>(),
  v.transform(({ pricingType, ...body }) => ({ ...fromOlderNames(body), ...defined({ pricingType: pricingType ?? body.pricingMode }) })),
);
export type ServiceChanges = v.InferOutput<typeof UpdateServiceBody>;

export const Service = serviceEntity.Record;
export type Service = v.InferOutput<typeof Service>;

export const ServiceIdPath = v.object({ serviceId: integerString('serviceId') });
export const ServiceResponse = v.object({ service: Service });
export const ServiceDeleted = deletedSchema(Integer);

/** The list's filters: a catalog trade category (another id answers 400), active or not. */
export const ListServicesQuery = v.object({
  ...PageQuery.entries,
  tradeCategoryId: v.optional(v.pipe(integerString('tradeCategoryId'), TradeCategoryIdSchema)),
  isActive: v.optional(booleanString('isActive')),
});
export type ListServicesQuery = v.InferOutput<typeof ListServicesQuery>;
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
