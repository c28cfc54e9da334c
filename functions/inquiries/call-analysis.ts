import * as v from 'valibot';
import { E164, isPlainObject } from '#shared/schema';

/**
 * What a voice platform says of a call beside its transcript, kept on the CALL record: the lead's number on the call
 * and the platform's post-call analysis (docs/inquiry-sources.md maps each platform's fields). Every one is optional
 * : a call recorded without them (or before they existed) reads without them, and one from a voice platform has each,
 null where the platform sent nothing. Written once here:
 * the ingestion body (callAnalysisInput) and the record as read (callAnalysisRecord) both take them from this file.
 */

/** The most an analysis object takes, as JSON: far above what a platform's extraction returns. */
export const MAX_ANALYSIS_DATA_BYTES = 32 * 1024;

const descriptions = {
  leadPhone: 'The lead’s number on this call, E.164: the caller’s on an inbound call, the number called on an outbound one. Null when not known (a web call).',
  sentiment: 'The caller’s sentiment as the platform judged it, as sent (Retell’s `user_sentiment`: Positive, Neutral, Negative or Unknown).',
  successful: 'Whether the call achieved its purpose, as the platform judged it (Retell’s `call_successful`; Vapi’s `successEvaluation` when it is true or false).',
  successEvaluation: 'The platform’s evaluation as sent, whatever its rubric (Vapi’s `successEvaluation`: true/false, a score, a grade).',
  analysisData: `What the platform extracted from the call, as sent (Retell’s \`custom_analysis_data\`, Vapi’s \`structuredData\`): a JSON object of at most ${MAX_ANALYSIS_DATA_BYTES / 1024} KB.`,
} as const;

const isSmallObject = (value: Record<string, unknown>) => Buffer.byteLength(JSON.stringify(value)) <= MAX_ANALYSIS_DATA_BYTES;

export const callAnalysisInput = {
  leadPhone: v.optional(v.nullable(v.pipe(v.string('data.leadPhone must be a string'), v.trim(), v.regex(E164, 'data.leadPhone must be in E.164 format, e.g. +61412345678'), v.description(descriptions.leadPhone)))),
  sentiment: v.optional(v.nullable(v.pipe(v.string('data.sentiment must be a string'), v.trim(), v.maxLength(100, 'data.sentiment must be at most 100 characters'), v.description(descriptions.sentiment)))),
  successful: v.optional(v.nullable(v.pipe(v.boolean('data.successful must be a boolean'), v.description(descriptions.successful)))),
  successEvaluation: v.optional(v.nullable(v.pipe(v.string('data.successEvaluation must be a string'), v.maxLength(1_000, 'data.successEvaluation must be at most 1000 characters'), v.description(descriptions.successEvaluation)))),
  analysisData: v.optional(
    v.nullable(
      v.pipe(
        v.custom<Record<string, unknown>>(isPlainObject, 'data.analysisData must be an object'),
        v.check(isSmallObject, `data.analysisData must be at most ${MAX_ANALYSIS_DATA_BYTES / 1024} KB as JSON`),
        v.metadata({ jsonSchema: { type: 'object', additionalProperties: true } }),
        v.description(descriptions.analysisData),
      ),
    ),
  ),
};

/** The same fields as a read answers them. */
export const callAnalysisRecord = {
  leadPhone: v.optional(v.nullable(v.pipe(v.string(), v.description(descriptions.leadPhone)))),
  sentiment: v.optional(v.nullable(v.pipe(v.string(), v.description(descriptions.sentiment)))),
  successful: v.optional(v.nullable(v.pipe(v.boolean(), v.description(descriptions.successful)))),
  successEvaluation: v.optional(v.nullable(v.pipe(v.string(), v.description(descriptions.successEvaluation)))),
  analysisData: v.optional(v.nullable(v.pipe(v.record(v.string(), v.unknown()), v.description(descriptions.analysisData)))),
};

/** What a sender says of how an inbound call went, which the call's outcome follows (functions/inquiries/call-outcome.ts). */
const outcomeDescriptions = {
  missed: 'True: nobody served the caller (MISSED). False: not missed, whatever its length.',
  transferred: 'True: handed over to a person (TRANSFERRED).',
  endReason: 'Why the call ended, as the voice platform said it (Retell’s `disconnection_reason`, Vapi’s `endedReason`): a transfer or a reason the caller was not served sets the outcome.',
} as const;

export const callOutcomeInput = {
  missed: v.optional(v.pipe(v.boolean('data.missed must be a boolean'), v.description(outcomeDescriptions.missed))),
  transferred: v.optional(v.pipe(v.boolean('data.transferred must be a boolean'), v.description(outcomeDescriptions.transferred))),
  endReason: v.optional(v.nullable(v.pipe(v.string('data.endReason must be a string'), v.maxLength(200, 'data.endReason must be at most 200 characters'), v.description(outcomeDescriptions.endReason)))),
};

/** The same fields as a read answers them. */
export const callOutcomeRecord = {
  missed: v.optional(v.pipe(v.boolean(), v.description(outcomeDescriptions.missed))),
  transferred: v.optional(v.pipe(v.boolean(), v.description(outcomeDescriptions.transferred))),
  endReason: v.optional(v.nullable(v.pipe(v.string(), v.description(outcomeDescriptions.endReason)))),
};
