import { ulid } from 'ulid';

/** `<kind>_<ULID>`: sortable by creation time, so sort keys built from them list newest first. */
export function newId(kind: string, at: Date = new Date()): string {
  return `${kind}_${ulid(at.getTime())}`;
}

export function now(): string {
  return new Date().toISOString();
}
