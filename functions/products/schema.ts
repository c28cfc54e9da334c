import * as v from 'valibot';
import { TradeCategoryIdSchema } from '../services/trade-categories';
import { booleanString } from '#shared/filters';
import { PageQuery, deletedSchema, integerString, pageSchema, partialUpdateBody } from '#shared/schema';
import { PricingTypeSchema, productEntity } from './attributes';

export { PRICING_TYPES } from './attributes';

export const MAX_BATCH_ITEMS = 100;

export const Product = productEntity.Record;
export type Product = v.InferOutput<typeof Product>;

/** Writable fields. Whether the price fields fit pricingType is checked on the merged result (resolvePricing). */
const productFields = productEntity.change;

/** The writable fields, with what a create may leave out and its default (the same pattern for every resource, by design). */
export const CreateProductBody = v.strictObject(productEntity.create);
export type CreateProductBody = v.InferOutput<typeof CreateProductBody>;

export const UpdateProductBody = partialUpdateBody(productFields);
/** Any subset of the writable fields; PUT bodies and batch items both become one of these. */
export type ProductChanges = v.InferOutput<typeof UpdateProductBody>;

export const ProductIdPath = v.object({ productId: integerString('productId', { label: 'Trade product' }) });

/** One batch item. Parsed item by item, so a malformed one fails alone. */
export const BatchItem = v.pipe(
  v.strictObject({
    id: v.pipe(
      v.number('id must be an integer'),
      v.integer('id must be an integer'),
      v.minValue(1, 'id must be at least 1'),
      v.maxValue(2_147_483_647, 'id must be at most 2147483647'),
    ),
    name: v.optional(productFields.name),
    pricing: v.optional(
      v.strictObject(
        {
          pricingType: productFields.pricingType,
          /** FIXED: the price. For RANGE, taken as the minimum when minPrice is absent (the batch's earlier spelling). */
          price: v.optional(productFields.price),
          minPrice: v.optional(productFields.minPrice),
          maxPrice: v.optional(productFields.maxPrice),
          isDisclosePrice: v.optional(productFields.isDisclosePrice),
        },
        'pricing must be an object',
      ),
    ),
  }, 'each update must be an object'),
  v.check((item) => item.name !== undefined || item.pricing !== undefined, 'each update must change name or pricing'),
);
export type BatchItem = v.InferOutput<typeof BatchItem>;

/**
 * Only the outer shape; each item is validated on its own so that one bad item fails alone, and the
 * 100-item limit answers BATCH_TOO_LARGE rather than a validation error.
 */
export const BatchUpdateProductsBody = v.strictObject({
  updates: v.pipe(
    v.array(v.pipe(v.unknown(), v.metadata({ documentedAs: BatchItem })), 'updates must be an array'),
    v.minLength(1, 'updates must contain at least one item'),
    // Over the limit answers BATCH_TOO_LARGE rather than a validation error, but the limit is documented.
    v.metadata({ jsonSchema: { maxItems: MAX_BATCH_ITEMS } }),
    v.description(`1 to ${MAX_BATCH_ITEMS} items, applied in order; more than ${MAX_BATCH_ITEMS} is rejected as a whole with BATCH_TOO_LARGE.`),
  ),
});

export const BatchResult = v.variant('status', [
  v.object({ id: v.pipe(v.number(), v.integer()), status: v.literal('ok'), product: Product }),
  /** id is null when the item had no integer id. */
  v.object({
    id: v.nullable(v.pipe(v.number(), v.integer())),
    status: v.literal('error'),
    code: v.pipe(
      v.string(),
      v.description(
        'Why the item was not applied: NOT_FOUND, CONFLICT, VALIDATION_ERROR or ITEM_TOO_LARGE (send it changed), UNAVAILABLE (the table failed to answer the write, and another write changed the product before it could be sent again: it was not applied and never will be) or INTERNAL_ERROR.',
      ),
    ),
    message: v.string(),
  }),
  v.pipe(
    v.object({ id: v.pipe(v.number(), v.integer()), status: v.literal('unknown'), code: v.literal('UNKNOWN'), message: v.string() }),
    v.description('The item was sent to the table but no answer came back, and the product could not be read again to tell: read it (GET /v1/products/{productId}) before sending the item again.'),
  ),
]);
export type BatchResult = v.InferOutput<typeof BatchResult>;

export const BatchUpdateProductsResponse = v.object({
  results: v.array(BatchResult),
  summary: v.object({
    total: v.pipe(v.number(), v.integer()),
    succeeded: v.pipe(v.number(), v.integer()),
    failed: v.pipe(v.number(), v.integer()),
    /** Items whose write may or may not have been applied (status `unknown`). */
    unknown: v.pipe(v.number(), v.integer()),
  }),
});

export const ProductResponse = v.object({ product: Product });
export const ProductPage = pageSchema('products', Product);
export const ProductDeleted = deletedSchema(v.pipe(v.number(), v.integer()));

/** The list's filters, each optional and combined with AND: a catalog trade category (another id answers 400), isActive, pricingType. */
export const ListProductsQuery = v.object({
  ...PageQuery.entries,
  tradeCategoryId: v.optional(v.pipe(integerString('tradeCategoryId'), TradeCategoryIdSchema)),
  isActive: v.optional(booleanString('isActive')),
  pricingType: v.optional(PricingTypeSchema),
});
export type ListProductsQuery = v.InferOutput<typeof ListProductsQuery>;
