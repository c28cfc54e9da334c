import * as v from 'valibot';

/**
 * A machine-read text (a search, a field name, a secret): trimmed, not empty, at most `max` characters, each refusal
 * naming the field; `actions` (a description, metadata) follow. Not a person's text: NonEmptyString checks that.
 */
export function TrimmedString(name: string, max: number, ...actions: v.PipeAction<string, string, never>[]): v.GenericSchema<string> {
  const checks = [v.trim(), v.minLength<string, 1, string>(1, `${name} must not be empty`), v.maxLength<string, number, string>(max, `${name} must be at most ${max} characters`)];
  return v.pipe(v.string(`${name} must be a string`), ...checks, ...actions);
}
