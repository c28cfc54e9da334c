/** The product's examples in the OpenAPI document: its record's, kept in ./example.ts as the record answers in its order. */
export { product } from './example';
