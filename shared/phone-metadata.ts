import type { MetadataJson } from 'libphonenumber-js/core';

/** Where a plan of libphonenumber-js's metadata (version 4) holds its formats: how a number is written for display. */
const FORMATS = 4;

/**
 * Every country's numbering plan as shared/phone.ts reads numbers with it: libphonenumber-js's `min` metadata without
 * the formats, about 50 KB of its 83 KB, which only the library's formatters and as-you-type reader use (reading a
 * number, checking it against its plan and writing it in E.164 never do). A plan without them reads as one whose
 * formats are its calling code's main country's, as the library stores the other countries sharing a code.
 */
export const withoutFormats = (metadata: MetadataJson): MetadataJson => {
  const strip = (plans: Record<string, unknown>) => Object.fromEntries(Object.entries(plans).map(([code, plan]) => [code, (plan as unknown[]).map((field, i) => (i === FORMATS ? null : field))]));
  const { countries, nonGeographic } = metadata as MetadataJson & { nonGeographic?: Record<string, unknown> };
  return { ...metadata, countries: strip(countries) as MetadataJson['countries'], ...(nonGeographic && { nonGeographic: strip(nonGeographic) }) };
};
