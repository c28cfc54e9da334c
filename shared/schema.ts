import * as v from 'valibot';

// The schemas every resource's are built from, by concern: ids, times, pages and text below shared/schema/; money,
// addresses, envelopes and partial updates here.
export * from './schema/ids';
export * from './schema/pages';
export * from './schema/text';
export * from './schema/time';
export * from './schema/jobs';

/** How exactly an amount of money is written: whole cents, which also keeps it within what DynamoDB stores (no magnitude under 1e-130). */
export const MONEY_RULE = 'An amount with at most 2 decimal places.';

/** An amount of money from 0 to `max`, in whole cents. */
export const Money = (name: string, max: number) =>
  v.pipe(
    v.number(`${name} must be a number`),
    v.finite(`${name} must be a finite number`),
    v.minValue(0, `${name} must not be negative`),
    v.maxValue(max, `${name} must be at most ${max}`),
    // The amount must be the double nearest its whole cents (0.07 * 100 is not exactly 7, but rounds back to 0.07).
    v.check((amount) => Math.round(amount * 100) / 100 === amount, `${name} must have at most 2 decimal places`),
    v.description(MONEY_RULE),
    v.metadata({ jsonSchema: { multipleOf: 0.01 } }),
  );

/** RFC 5321's bounds of an address, which the document's `format: email` carries: 64 characters before the @, 254 in all. */
export const EMAIL_LOCAL_MAX = 64;
export const EMAIL_MAX = 254;

/**
 * An email address: trimmed, valibot's grammar (the document's pattern, one @), and RFC 5321's bounds. `typeMessage`
 * answers a value that is not a string.
 */
export const Email = (name: string, typeMessage = `${name} must be a string`) =>
  v.pipe(
    v.string(typeMessage),
    v.trim(),
    v.email(`${name} must be a valid email address`),
    v.check((email) => email.indexOf('@') <= EMAIL_LOCAL_MAX, `${name} must have at most ${EMAIL_LOCAL_MAX} characters before the @`),
    v.maxLength(EMAIL_MAX, `${name} must be at most ${EMAIL_MAX} characters`),
  );

/** A phone number in E.164: a plus, a country code and up to 15 digits in all. */
export const E164 = /^\+[1-9]\d{6,14}$/;

export const ErrorEnvelopeSchema = v.object({
  success: v.literal(false),
  message: v.string(),
  error: v.object({
    status: v.pipe(v.number(), v.integer()),
    message: v.string(),
    code: v.optional(v.string()),
    details: v.optional(v.array(v.object({ path: v.string(), message: v.string(), existingId: v.optional(v.string()) }))),
  }),
});

/** What a DELETE answers: the id of the record that is gone. */
export const deletedSchema = <S extends v.GenericSchema>(id: S) => v.object({ success: v.literal(true), id });
export const DeletedSchema = deletedSchema(v.string());

type OptionalEntries<T extends v.ObjectEntries> = { [K in keyof T]: v.OptionalSchema<T[K], undefined> };

/**
 * A PUT body: any non-empty subset of the resource's writable fields; absent fields stay as they
 * are, unknown fields answer 400.
 */
export function partialUpdateBody<T extends v.ObjectEntries>(fields: T) {
  const entries = Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, v.optional(schema)])) as OptionalEntries<T>;
  return v.pipe(
    v.strictObject(entries),
    v.check((body) => Object.keys(body).length > 0, 'body must contain at least one field to change'),
    v.metadata({ jsonSchema: { minProperties: 1 } }),
  );
}

/**
 * What a new record of an entity holds in each field nobody has set, read from its schema so a field's empty value is
 * never written twice: the field's default where it has one, else null where it may be null, 0 for a number, false
 * for a boolean, an empty object or array. A field with none of these (a string, a picklist) must be given.
 */
export function emptyFieldsOf<T extends v.ObjectEntries>(schema: v.ObjectSchema<T, undefined>): Partial<v.InferOutput<v.ObjectSchema<T, undefined>>> {
  const empty = (field: v.GenericSchema): unknown => {
    switch (field.type) {
      case 'optional':
        return v.getDefault(field as v.OptionalSchema<v.GenericSchema, unknown>);
      case 'nullable':
        return null;
      case 'number':
        return 0;
      case 'boolean':
        return false;
      case 'record':
      case 'object':
        return {};
      case 'array':
        return [];
      default:
        return undefined;
    }
  };
  return Object.fromEntries(Object.entries(schema.entries).flatMap(([name, field]) => {
    const value = empty(field as v.GenericSchema);
    return value === undefined ? [] : [[name, value]];
  })) as Partial<v.InferOutput<v.ObjectSchema<T, undefined>>>;
}
