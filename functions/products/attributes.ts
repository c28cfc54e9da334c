import * as v from 'valibot';
import { TradeCategoryIdSchema } from '../services/trade-categories';
import { Money, NonEmptyString, OptionalText } from '#shared/schema';
import { defineEntity, RECORD_TIMES } from '#shared/store/entity';
import { numberedKey } from '#shared/store/keys';

export const PRICING_TYPES = ['NONE', 'FIXED', 'RANGE'] as const;

const MAX_PRICE = 100_000_000;
/** A price as written; its row's `nullable` lets a write send null as well. */
const Price = (name: string) => Money(name, MAX_PRICE);

const Faq = v.strictObject({ question: NonEmptyString('question', 500), answer: NonEmptyString('answer', 5000) });
const Faqs = v.pipe(v.array(Faq, 'faqs must be an array of {question, answer}'), v.maxLength(50, 'faqs may have at most 50 entries'));
export const PricingTypeSchema = v.picklist(PRICING_TYPES, 'pricingType must be one of NONE, FIXED, RANGE');
const Bool = (name: string) => v.boolean(`${name} must be a boolean`);
const Integer = v.pipe(v.number(), v.integer());

/**
 * A product's fields, in the order the create and change bodies take them. A create may leave out what states a
 * default; the price fields, sent back as read (null: not set), are checked against pricingType on the merged result
 * (rules.ts resolvePricing).
 */
const attributes = {
  id: { type: Integer },
  name: { type: v.string(), rule: NonEmptyString('name', 200), required: true },
  description: { type: v.string(), rule: OptionalText('description', 5000), default: '', defaultInBody: true },
  /** What the AI receptionist tells a caller about the product. */
  response: { type: v.string(), rule: OptionalText('response', 5000), default: '', defaultInBody: true },
  faqs: { type: v.array(v.object({ question: v.string(), answer: v.string() })), rule: Faqs, defaultInBody: true, answeredAfter: 'isDisclosePrice' },
  tradeCategoryId: { type: Integer, rule: TradeCategoryIdSchema, required: true },
  pricingType: { type: v.picklist(PRICING_TYPES), rule: PricingTypeSchema, required: true },
  // The three prices take null, which stands for "not set" (docs/decisions/services-and-products.md#one-set-of-price-names).
  /** FIXED: the price; otherwise null. */
  price: { type: v.nullable(v.number()), rule: Price('price'), nullable: true },
  /** RANGE: the minimum; otherwise null. */
  minPrice: { type: v.nullable(v.number()), rule: Price('minPrice'), nullable: true },
  /** RANGE: the maximum; otherwise null. */
  maxPrice: { type: v.nullable(v.number()), rule: Price('maxPrice'), nullable: true },
  isDisclosePrice: { type: v.boolean(), rule: Bool('isDisclosePrice'), defaultInBody: true },
  isActive: { type: v.boolean(), rule: Bool('isActive'), default: true, defaultInBody: true },
  ...RECORD_TIMES,
} as const;

/** The product: its attributes and its item (`PRODUCT#<id>`, zero-padded so the catalog reads newest first). */
export const productEntity = defineEntity({
  entity: 'PRODUCT',
  attributes,
  key: numberedKey('PRODUCT'),
  changes: 'PRODUCTS',
});
