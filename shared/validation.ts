import * as v from 'valibot';
import { refusedUnrun, ValidationError, type ErrorDetail } from './errors';
import { unknownIdAnswer } from './schema';

const OBJECT_TYPES = new Set(['object', 'strict_object', 'loose_object']);

/**
 * valibot reports a missing or unknown key as an issue of the object, worded with the object's own
 * message; the API words both the same way everywhere instead.
 */
function message(issue: v.BaseIssue<unknown>, path: string | null): string {
  if (path && OBJECT_TYPES.has(issue.type)) {
    if (issue.expected === 'never') return `${path} is not a known field`;
    if (issue.received === 'undefined') return `${path} is required`;
  }
  return issue.message;
}

/** The issues as `{path, message}`; an issue of the value as a whole is placed at `where`. */
export function validationDetails(issues: readonly v.BaseIssue<unknown>[], where: string): ErrorDetail[] {
  return issues.map((issue) => {
    const path = v.getDotPath(issue);
    return { path: path ?? where, message: message(issue, path) };
  });
}

/**
 * The answer to a path or body whose only faults are ids that cannot exist: what the first of them would get as an
 * id that does not (a 404), so a malformed id and an unknown one answer alike and neither reaches a key.
 */
function unknownIdError(issues: readonly v.BaseIssue<unknown>[]): Error | undefined {
  const fields = new Map<string, v.BaseIssue<unknown>[]>();
  for (const issue of issues) fields.set(v.getDotPath(issue) ?? '', [...(fields.get(v.getDotPath(issue) ?? '') ?? []), issue]);
  const answers = [...fields.values()].map((faults) => faults.map((fault) => ({ fault, answer: unknownIdAnswer(fault.requirement) })).find(({ answer }) => answer));
  if (answers.length === 0 || answers.some((found) => !found)) return undefined;
  const { fault, answer } = answers[0]!;
  return refusedUnrun(answer!(fault.input));
}

/** Parses a value (a request part, a batch item) or throws a 400 naming the field; see unknownIdError for ids. */
export function parseOrThrow<S extends v.GenericSchema>(schema: S, input: unknown, where: string): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (!result.success) throw (where === 'path' || where === 'body' ? unknownIdError(result.issues) : undefined) ?? new ValidationError(validationDetails(result.issues, where));
  return result.output;
}
