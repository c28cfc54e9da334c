/**
 * Where an inquiry comes from and the tags the service gives it: plain lists, apart from the inquiry's schemas, for the
 * modules that name them without reading an inquiry (the automations' trigger filters, the reports' figures).
 */
export const INQUIRY_SOURCES = ['CALL', 'EMAIL', 'CHATBOT', 'SMS', 'WEBFORM'] as const;
export type InquirySource = (typeof INQUIRY_SOURCES)[number];

/** Tags the service assigns; docs/inquiry-sources.md says what each means. */
export const INQUIRY_TAGS = ['GENERAL', 'QUOTE_REQUEST', 'BOOKING', 'EMERGENCY', 'FOLLOW_UP', 'FLAGGED'] as const;
export type InquiryTag = (typeof INQUIRY_TAGS)[number];
