/**
 * A read made once per key however often it is asked for: one stream batch's records share what their organization's
 * read found. A failed read is forgotten, so the next ask (the record handed again) reads anew.
 */
export function readsOnce<A extends unknown[], T>(read: (...args: A) => Promise<T>, keyOf: (...args: A) => string = (...args) => args.join('#')): (...args: A) => Promise<T> {
  const reads = new Map<string, Promise<T>>();
  return (...args) => {
    const key = keyOf(...args);
    let reading = reads.get(key);
    if (!reading) {
      reading = read(...args).catch((error: unknown) => {
        reads.delete(key);
        throw error;
      });
      reads.set(key, reading);
    }
    return reading;
  };
}
