import * as v from 'valibot';

/** A boolean list filter written in a query string: exactly `true` or `false`, anything else answers 400 naming it. */
export const booleanString = (name: string) =>
  v.pipe(
    v.picklist(['true', 'false'], `${name} must be true or false`),
    v.transform((text) => text === 'true'),
    // Declares the output type, so the OpenAPI document describes the parameter as a boolean.
    v.boolean(),
  );

/** What a list's filters are, as a cursor is bound to them: `isActive=true&tradeCategoryId=1` (absent ones left out). */
export const filterSignature = (filters: Record<string, unknown>) =>
  Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${String(value)}`)
    .sort()
    .join('&');
