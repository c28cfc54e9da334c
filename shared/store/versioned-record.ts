/** An entity as stored, with the version number every update of it is conditioned on. */
export interface Versioned<T> {
  value: T;
  version: number;
}

/** The stored item of a versioned entity: its key, its kind, the version and the entity's own fields. */
export function toVersionedItem<T extends object>(key: { pk: string; sk: string }, entity: string, organizationId: string, { value, version }: Versioned<T>) {
  return { ...key, entity, organizationId, version, ...value };
}
