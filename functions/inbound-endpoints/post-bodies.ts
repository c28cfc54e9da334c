import * as v from 'valibot';
import { IngestInquiryBody } from '../inquiries/ingestion-schema';
import { MAX_CALL_PLATFORM_BYTES } from './schema';
import { prose } from '#shared/prose';

// Apart from schema.ts, which the endpoint's authorizer imports: these describe bodies only the document reads.
/**
 * What POST /v1/inbound/{id} takes, as the document describes it: the handler reads the raw body itself, by the
 * endpoint's source and format (rules.ts), so these schemas only describe it, one per shape the route names.
 */
const Described = (max: number, description: string) => v.optional(v.pipe(v.string(), v.maxLength(max), v.description(description)));

/** A web form's own field, as its record keeps it. */
const FormValue = v.pipe(v.string(), v.maxLength(20_000));

const webformFields = {
  email: Described(254, 'The visitor’s email, which finds or makes the lead (a form’s own name for it is renamed by the endpoint’s fieldMap).'),
  phone: Described(20_000, 'The visitor’s phone in any common form; one that is not a phone number is kept as a field only.'),
  name: Described(200, 'The visitor’s name, split into first and last name unless firstName or lastName is posted.'),
  firstName: Described(100, 'The visitor’s first name.'),
  lastName: Described(100, 'The visitor’s last name.'),
  message: Described(20_000, 'What the visitor wrote: the inquiry’s summary (its first 1000 characters). Without it, the first field of 40 characters or more.'),
  formName: Described(200, 'The form’s name in the inquiry; the endpoint’s name when absent.'),
  pageUrl: v.optional(v.pipe(v.string(), v.maxLength(2048), v.description('The page the form was posted from (http or https).'), v.metadata({ jsonSchema: { format: 'uri' } }))),
  externalInquiryId: Described(200, 'The sender’s own id for the submission: the same id again, from the same sender, answers 200 with the first inquiry.'),
};

const WEBFORM_RULE =
  'WEBFORM endpoints: the form’s fields, every one kept on the inquiry (at most 200). The lead is found from email, phone and name after fieldMap renames the form’s own names; an email or a phone is needed.';

const WebformForm = v.pipe(v.objectWithRest(webformFields, FormValue), v.title('Web form'), v.description(WEBFORM_RULE));

const WebformJson = v.pipe(
  v.objectWithRest(
    { ...webformFields, externalInquiryId: v.optional(v.union([webformFields.externalInquiryId.wrapped, v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER))])) },
    v.pipe(v.unknown(), v.description('Any field of the form; a value that is not text is kept as its JSON.')),
  ),
  v.title('Web form (JSON)'),
  v.description(`${WEBFORM_RULE} A form builder’s entry number may be sent as externalInquiryId.`),
);

const emailFields = {
  from: Described(320, 'The sender, `Name <address>` or an address: the lead is found or made from it.'),
  to: Described(320, 'The address it was sent to.'),
  subject: Described(1_000, 'The subject.'),
  text: Described(100_000, 'The plain-text body; the text of `html` when absent.'),
  html: Described(100_000, 'The HTML body, read as the text a reader sees.'),
  externalInquiryId: webformFields.externalInquiryId,
};

const EMAIL_RULE = 'EMAIL endpoints: an email as mail-parsing services post it. Other fields are ignored.';
const EmailJson = v.pipe(v.looseObject(emailFields), v.title('Parsed email'), v.description(EMAIL_RULE));
const EmailForm = v.pipe(v.objectWithRest(emailFields, FormValue), v.title('Parsed email'), v.description(EMAIL_RULE));

/** POST /v1/inquiries' body of one source, without `source`: the endpoint's source is the inquiry's. */
function inquiryOf(source: 'CALL' | 'CHATBOT'): v.GenericSchema {
  const variant = IngestInquiryBody.options.find((option) => option.entries.source.literal === source)!;
  return v.pipe(v.omit(variant, ['source']), v.title(`${source === 'CALL' ? 'Call' : 'Chat'} (native)`), v.description(`${source} endpoints of format native: the body POST /v1/inquiries takes, without source.`));
}

const RetellWebhook = v.pipe(
  v.looseObject({
    event: v.optional(v.pipe(v.string(), v.maxLength(100), v.description('`call_analyzed` records the call; any other event is acknowledged with 204.'))),
    event_type: v.optional(v.pipe(v.string(), v.maxLength(100), v.description('The event under the name parts of Retell’s documentation give it; read when `event` is absent.'))),
    call: v.pipe(
      v.looseObject({}),
      v.description('Retell’s call: `call_id`, `direction`, `from_number`, `to_number`, `start_timestamp`, `end_timestamp`, `disconnection_reason`, `recording_url`, `transcript_object` and `call_analysis` (`call_summary`, `user_sentiment`, `call_successful`, `custom_analysis_data`) are read.'),
    ),
  }),
  v.title('Retell webhook'),
  v.description(`CALL endpoints of format retell: Retell’s webhook exactly as Retell sends it, up to ${MAX_CALL_PLATFORM_BYTES / 1024 / 1024} MB, signed in x-retell-signature.`),
);

const VapiWebhook = v.pipe(
  v.looseObject({
    message: v.pipe(
      v.looseObject({ type: v.pipe(v.string(), v.maxLength(100), v.description('`end-of-call-report` records the call; any other message is acknowledged with 204.')) }),
      v.description(prose`
        Vapi’s server message: of an end-of-call report, \`endedReason\`, \`call\`, \`customer\`, \`startedAt\`,
        \`endedAt\`, \`artifact\` (messages, recordings: \`recording.mono.combinedUrl\`, \`recordingUrl\`,
        \`recording.stereoUrl\`, \`stereoRecordingUrl\`) and \`analysis\` (\`summary\`, \`successEvaluation\`,
        \`structuredData\`) are read.
      `),
    ),
  }),
  v.title('Vapi server message'),
  v.description(`CALL endpoints of format vapi: Vapi’s server message exactly as Vapi sends it, up to ${MAX_CALL_PLATFORM_BYTES / 1024 / 1024} MB, with the endpoint’s secret in x-vapi-secret or Authorization.`),
);

/** The bodies an inbound post takes in each media type: JSON in every shape, a form's fields as HTML forms and mail parsers post them. */
export const INBOUND_POST_BODIES = {
  'application/json': v.union([WebformJson, EmailJson, inquiryOf('CALL'), inquiryOf('CHATBOT'), RetellWebhook, VapiWebhook]),
  'application/x-www-form-urlencoded': v.union([WebformForm, EmailForm]),
  'multipart/form-data': v.union([WebformForm, EmailForm]),
};
