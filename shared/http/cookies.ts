/** The cookies of a Cookie header by name (the first of a name, as a browser sends the most specific first). */
export function cookiesOf(cookieHeader: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = Object.create(null);
  for (const part of (cookieHeader ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 1) continue;
    const name = part.slice(0, at).trim();
    cookies[name] ??= part.slice(at + 1).trim();
  }
  return cookies;
}

/** One cookie's value in a Cookie header, if it is there. */
export const cookieNamed = (cookieHeader: string | undefined, name: string): string | undefined => cookiesOf(cookieHeader)[name];
