/** The fields of a partial change that were actually sent (a PUT body, a batch item). */
export const defined = <T extends object>(object: T): Partial<T> =>
  Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as Partial<T>;
