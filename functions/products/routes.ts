import { errorEnvelope } from '#shared/http/envelope';
import {
  BatchUpdateProductsBody,
  BatchUpdateProductsResponse,
  MAX_BATCH_ITEMS,
  } from './schema';
import { defineRoute } from '#shared/routes/route';
import * as schema from './schema';
import { recordRows } from '#shared/routes/record-rows';
import { prose } from '#shared/prose';

const product = recordRows(schema, { tag: 'Products', names: { one: 'Product', many: 'Products' }, path: '/v1/products', changeLog: true, catalog: true });

/** What a create or a rename gets for a name another product has: the product of the create's example, created twice. */
const NAME_TAKEN = { 409: { examples: { NameTaken: errorEnvelope(409, 'A product named "Hot water system install" already exists', 'CONFLICT') } } };

export const createProduct = product.create({
  summary: 'Create a trade product (pricing per pricingType)',
  description: 'A product the AI receptionist can quote. `pricingType` decides the price fields: NONE takes none, FIXED takes `price`, RANGE takes `minPrice` and `maxPrice` (min ≤ max). A name already used in the organization, ignoring case and spacing, answers 409.',
  requestExample: {
    name: 'Hot water system install',
    description: 'Supply and install of a 250 L electric storage hot water system, old unit removed.',
    response: 'A standard electric hot water install starts from $1,650 including the unit.',
    tradeCategoryId: 1,
    pricingType: 'RANGE',
    minPrice: 1650,
    maxPrice: 2400,
    isDisclosePrice: true,
    faqs: [{ question: 'How long does an install take?', answer: 'Usually three to four hours.' }],
  },
  errors: [409],
  responses: NAME_TAKEN,
});

export const listProducts = product.list({
  summary: 'List trade products, newest first, optionally filtered',
  description: prose`
    Pages through the organization’s products, newest first. \`tradeCategoryId\`, \`isActive\` and \`pricingType\`
    filter the list (together, all must hold); \`totalCount\` is exact under any filter. A cursor belongs to the filters
    it was answered with.
  `,
});

export const getProduct = product.get({ summary: 'Read a trade product', description: 'One product of the organization; another organization’s product, or one deleted, answers 404.' });

export const updateProduct = product.update({
  method: 'PUT',
  summary: 'Change any subset of a trade product’s fields',
  description: prose`
    Fields left out keep their values; the merged product must still fit its \`pricingType\`. A price sent as null is
    the same as one left out, so the pricing fields a GET answers can be sent back as they are. A rename to a name in
    use answers 409 and changes nothing. Concurrent updates are applied one after another, never lost.
  `,
  dynamodb: ['GetItem', 'PutItem', 'DeleteItem'],
  requestExample: { pricingType: 'FIXED', price: 1890, isDisclosePrice: true },
  errors: [409],
  responses: NAME_TAKEN,
});

export const deleteProduct = product.delete({
  summary: 'Delete a trade product',
  description: 'Removes the product and frees its name for another product, in one transaction. A product already gone answers 404, and so does a batch item naming it.',
  dynamodb: ['GetItem', 'DeleteItem', 'PutItem'],
});

export const batchUpdateProducts = defineRoute({
  operationId: 'batchUpdateProducts',
  method: 'PATCH',
  path: '/v1/products/batch',
  summary: 'Rename and re-price up to 100 trade products, item by item',
  description: prose`
    Applies up to 100 renames and re-pricings in order, each on its own: a failing item (unknown id, taken name,
    inconsistent pricing) is reported in its result and neither stops nor undoes the others. An item whose write the
    table failed to answer is sent again, on the same condition, so that it is applied once whether or not the first
    arrives later: reported \`ok\` when it was applied, \`error\` UNAVAILABLE when another write changed the product
    first (it never will be), and \`unknown\` (code UNKNOWN) when the table fails again or the product cannot be read
    to tell. Answers 200 with one result per item and a
    summary; over 100 items nothing is applied (400 BATCH_TOO_LARGE). An item’s \`pricing\` takes the price fields a
    product answers (\`price\` for FIXED, \`minPrice\` and \`maxPrice\` for RANGE, null for not set); a RANGE
    \`price\` without \`minPrice\`, the older spelling, is read as the minimum.
  `,
  tag: 'Products',
  dynamodb: ['BatchGetItem', 'GetItem', 'PutItem', 'DeleteItem'],
  status: 200,
  request: { body: BatchUpdateProductsBody },
  requestExample: { updates: [{ id: 3, name: 'Hot water system install (250 L)' }, { id: 4, pricing: { pricingType: 'FIXED', price: 180, isDisclosePrice: true } }] },
  response: BatchUpdateProductsResponse,
  errors: [400],
  responses: { 400: { examples: { BatchTooLarge: errorEnvelope(400, `The batch exceeds ${MAX_BATCH_ITEMS} items (101 given); nothing was applied`, 'BATCH_TOO_LARGE') } } },
});

export const productRoutes = [createProduct, listProducts, getProduct, updateProduct, deleteProduct, batchUpdateProducts];
