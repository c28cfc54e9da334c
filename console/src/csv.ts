import type { Lead } from './types';

/** The columns of the file, by the lead's field names: what a spreadsheet of the pipeline needs. */
const COLUMNS = ['id', 'firstName', 'lastName', 'businessName', 'email', 'phone', 'suburb', 'status', 'value', 'statusChangedAt', 'lastInquiryDate', 'createdAt', 'updatedAt'] as const satisfies readonly (keyof Lead)[];

/** A text a spreadsheet would run as a formula: it starts with =, +, -, @, a tab or a carriage return, and is no number (a phone in E.164 is one). */
const looksLikeFormula = (text: string) => /^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+$/.test(text);

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. A text that looks like a formula
 * gets a leading apostrophe: a lead's name came from a stranger's web form, and must open as text (OWASP's advice on
 * CSV injection).
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' && looksLikeFormula(value) ? `'${value}` : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const leadsCsv = (leads: readonly Lead[]) => [COLUMNS.join(','), ...leads.map((lead) => COLUMNS.map((column) => csvField(lead[column])).join(','))].join('\r\n') + '\r\n';

