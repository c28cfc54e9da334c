import * as v from 'valibot';

/**
 * The trade categories services and products belong to. A built-in catalog rather than a table:
 * it is the same for every organization and changes only with a release (docs/trade-categories.md).
 */
export interface TradeCategory {
  id: number;
  name: string;
  type: 'SERVICE';
}

// Numbered from 1 in this order: a category's id never changes, so a new one goes last.
export const TRADE_CATEGORIES: readonly TradeCategory[] = ['Plumbing', 'Electrical', 'Heating & cooling', 'Carpentry', 'Roofing', 'Painting', 'Landscaping', 'Cleaning', 'Pest control', 'Locksmith', 'Building', 'General handyman'].map(
  (name, at) => ({ id: at + 1, name, type: 'SERVICE' }),
);

const byId = new Map<number, TradeCategory>(TRADE_CATEGORIES.map((category) => [category.id, category]));

const ids = TRADE_CATEGORIES.map((category) => category.id);
/** What a caller can act on: the valid ids, and the route that names each (not a file of this repository). */
const NOT_A_CATEGORY = `tradeCategoryId must be a trade category id, ${Math.min(...ids)} to ${Math.max(...ids)}: GET /v1/trade-categories lists them`;

/** A request field holding a catalog id: an integer (not a numeric string) that the catalog lists. */
export const TradeCategoryIdSchema = v.pipe(
  v.number('tradeCategoryId must be an integer'),
  v.integer('tradeCategoryId must be an integer'),
  // The catalog's ids are contiguous, so the bounds also document it in the OpenAPI document.
  v.minValue(Math.min(...ids), NOT_A_CATEGORY),
  v.maxValue(Math.max(...ids), NOT_A_CATEGORY),
  // Only within the bounds, so an id past them is refused once, not by both.
  v.check((id) => id < Math.min(...ids) || id > Math.max(...ids) || byId.has(id), NOT_A_CATEGORY),
);

export const TradeCategory = v.object({
  id: v.pipe(v.number(), v.integer(), v.description('What `tradeCategoryId` names: never reused or renumbered.')),
  name: v.string(),
  type: v.pipe(v.picklist(['SERVICE']), v.description('What the category holds: SERVICE, trade services and their products.')),
});

/** The whole catalog, in its order: what GET /v1/trade-categories answers. */
export const TradeCategoryList = v.object({ tradeCategories: v.array(TradeCategory), totalCount: v.pipe(v.number(), v.integer()) });
