import * as v from 'valibot';

/**
 * The trade categories services and products belong to. A built-in catalog rather than a table:
 * it is the same for every organization and changes only with a release (docs/trade-categories.md).
 */
// One row per category: the rows are data and alike by design.
export const TRADE_CATEGORIES = [
  { id: 1, name: 'Plumbing', type: 'SERVICE' },
  { id: 2, name: 'Electrical', type: 'SERVICE' },
  { id: 3, name: 'Heating & cooling', type: 'SERVICE' },
  { id: 4, name: 'Carpentry', type: 'SERVICE' },
  { id: 5, name: 'Roofing', type: 'SERVICE' },
  { id: 6, name: 'Painting', type: 'SERVICE' },
  { id: 7, name: 'Landscaping', type: 'SERVICE' },
  { id: 8, name: 'Cleaning', type: 'SERVICE' },
  { id: 9, name: 'Pest control', type: 'SERVICE' },
  { id: 10, name: 'Locksmith', type: 'SERVICE' },
  { id: 11, name: 'Building', type: 'SERVICE' },
  { id: 12, name: 'General handyman', type: 'SERVICE' },
] as const satisfies readonly TradeCategory[];

export interface TradeCategory {
  id: number;
  name: string;
  type: 'SERVICE';
}

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
