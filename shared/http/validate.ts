import * as v from 'valibot';
import { ValidationError, type ErrorDetail } from '../errors';

function details(issues: readonly v.BaseIssue<unknown>[], where: string): ErrorDetail[] {
  return issues.map((issue) => ({ path: v.getDotPath(issue) ?? where, message: issue.message }));
}

/** Parses one part of the request (path, query or body) or throws a 400 naming the field. */
export function parseRequestPart<S extends v.GenericSchema>(schema: S, input: unknown, where: string): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (!result.success) throw new ValidationError(details(result.issues, where));
  return result.output;
}
