/** An item as anyone reading the table (or its export) sees it: binary attributes as base64, and as text. */
export const asRead = (item: Record<string, unknown>) =>
  JSON.stringify(item, (_, value) => (value instanceof Uint8Array ? `${Buffer.from(value).toString('base64')} ${Buffer.from(value).toString('latin1')}` : value));

/** The parts of a secret (every 8 characters in a row, and of its key's bytes) that show in the text. */
export const partsIn = (text: string, secret: string) => {
  const forms = [secret, secret.replace(/^whsec_/, ''), Buffer.from(secret.replace(/^whsec_/, ''), 'base64').toString('latin1')];
  return forms.flatMap((form) => Array.from({ length: Math.max(0, form.length - 7) }, (_, i) => form.slice(i, i + 8))).filter((part) => text.includes(part));
};
