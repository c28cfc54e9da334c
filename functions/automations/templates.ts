// Contract stub: the templates module (grammar, validation at create, rendering) replaces this file.

/** Values by variable (`lead.firstName`); null or absent: the template's fallback is used. */
export type TemplateValues = Readonly<Record<string, string | null | undefined>>;

/** The template with each `{{ variable }}` / `{{ variable | fallback }}` written out; values are text, never read again as templates. */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(/\{\{\s*([\w.]+)\s*(?:\|([^}]*))?\}\}/g, (_, name: string, fallback?: string) => values[name] ?? fallback?.trim() ?? '');
}
