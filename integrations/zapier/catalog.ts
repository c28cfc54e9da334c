/**
 * What the Zapier app offers, as data: its triggers by event type, its creates and searches by the API tool they call
 * (the MCP tools' flattened arguments, functions/mcp/tools.ts, built from the OpenAPI document), and every other keyed
 * route with why it is not a Zapier action. generate.ts turns this into the app's committed definitions; a keyed
 * route or an event type in neither place fails the generator and the app's test.
 */

/** An event passes a trigger when every `where` field of its data has that value and every `changed` field changed. */
export interface EventFilter {
  where?: Record<string, string | boolean>;
  /** Fields the event's `previousAttributes` names: changed by this update. */
  changed?: string[];
}

export interface TriggerEntry {
  key: string;
  noun: string;
  label: string;
  description: string;
  /** The event type subscribed to; undefined: the one the Zap chooses (any event type). */
  eventType?: string;
  filter?: EventFilter;
}

/** Instant triggers (REST hooks): the events a trades business's Zaps start from, and any event type by choice. */
export const TRIGGERS: readonly TriggerEntry[] = [
  { key: 'new_lead', noun: 'Lead', label: 'New Lead', description: 'Triggers when a lead is created, by a call, a form, an SMS or the API.', eventType: 'lead.created' },
  { key: 'new_inquiry', noun: 'Inquiry', label: 'New Inquiry', description: 'Triggers when an inquiry arrives: a call, an email, a chat, an SMS thread or a web form.', eventType: 'inquiry.created' },
  { key: 'lead_status_changed', noun: 'Lead', label: 'Lead Status Changed', description: "Triggers when a lead's status changes (for example from QUOTED to WON).", eventType: 'lead.updated', filter: { changed: ['status'] } },
  { key: 'appointment_booked', noun: 'Appointment', label: 'Appointment Booked', description: 'Triggers when an appointment is booked.', eventType: 'appointment.created' },
  { key: 'appointment_cancelled', noun: 'Appointment', label: 'Appointment Cancelled', description: 'Triggers when an appointment is cancelled.', eventType: 'appointment.updated', filter: { where: { status: 'CANCELLED' }, changed: ['status'] } },
  { key: 'missed_call', noun: 'Call', label: 'Missed Call', description: 'Triggers when a call nobody served is logged (its outcome MISSED).', eventType: 'inquiry.created', filter: { where: { source: 'CALL', callOutcome: 'MISSED' } } },
  { key: 'sms_received', noun: 'SMS', label: 'SMS Received', description: 'Triggers when a lead texts the business.', eventType: 'sms.received' },
  { key: 'new_event', noun: 'Event', label: 'New Event', description: 'Triggers on any event type you choose: every change the API reports to webhooks.' },
];

export interface ActionEntry {
  key: string;
  noun: string;
  label: string;
  description: string;
  /** The API tool it calls (functions/mcp/tools.ts): a route's own (`create_lead`) or a curated one (`log_call`). */
  tool: string;
  /** Only these arguments, in this order; every one of the tool's when absent. */
  pick?: string[];
  /** Arguments sent as these values, never asked for. */
  fixed?: Record<string, string>;
  /** Arguments asked for as required beyond those the tool requires. */
  require?: string[];
}

/** Creates: the writes a Zap makes. */
export const CREATES: readonly ActionEntry[] = [
  { key: 'create_lead', noun: 'Lead', label: 'Create Lead', description: 'Creates a new lead.', tool: 'create_lead' },
  { key: 'upsert_lead', noun: 'Lead', label: 'Create or Update Lead', description: 'Finds the lead with this email or phone (the one chosen in Match By) and updates it with the fields given, or creates it.', tool: 'upsert_lead' },
  { key: 'update_lead', noun: 'Lead', label: 'Update Lead', description: "Changes a lead's details, status or company.", tool: 'update_lead' },
  { key: 'log_call', noun: 'Call', label: 'Log a Call', description: "Records a call as a CALL inquiry, finding or creating the lead by the caller's phone.", tool: 'log_call' },
  { key: 'send_sms', noun: 'SMS', label: 'Send SMS', description: 'Sends an SMS to a lead, unless the number opted out.', tool: 'send_sms' },
  { key: 'book_appointment', noun: 'Appointment', label: 'Book Appointment', description: 'Books an appointment for a lead, at a time given or in a slot held before.', tool: 'create_appointment' },
  { key: 'add_note', noun: 'Note', label: 'Add Note to Lead', description: "Adds a note to a lead's activity.", tool: 'create_lead_activity', fixed: { event: 'NOTE' } },
];

/** Searches: the records a Zap looks up. */
export const SEARCHES: readonly ActionEntry[] = [
  { key: 'find_lead', noun: 'Lead', label: 'Find Lead', description: 'Finds a lead by email or phone (give one of the two).', tool: 'search_leads', pick: ['email', 'phone'] },
];

/** Search-or-creates: a search with the create that runs when it finds nothing ("create if not found"). */
export const SEARCH_OR_CREATES: readonly { search: string; create: string; label: string }[] = [{ search: 'find_lead', create: 'create_lead', label: 'Find or Create Lead' }];

const READ = 'A read: a Zap receives new records from the triggers and looks a lead up with Find Lead; other reads are no step of a workflow.';
const SETUP = "The business's own setup (organization, members, services, scenarios, products, transfers, policies, FAQs): made once in the dashboard or the API, not by each run of a Zap.";
const AUTOMATIONS = "The API's own automations: in Zapier the Zap is the automation.";
const WEBHOOKS = 'Webhook subscriptions are what the triggers subscribe and unsubscribe themselves; a Zap has no step for them.';
const DELETE = 'A delete: left to the dashboard and the API, so that no Zap deletes a record by a mapping mistake.';
const LIVE_CALL = "A live call's step for a voice agent (offered to it over /mcp): holding a slot, resolving a transfer or reading the receptionist's context happens during the call, not in a workflow after it.";
const COMPANIES = 'Companies group leads for business-to-business sales, set up in the dashboard; a Zap works on leads.';
const INBOUND = 'Inbound endpoints receive form posts and emails from outside systems: a Zap logs what it receives with Log a Call or Create Lead.';
const REPORTS = 'Reports are read in the dashboard; a Zap has no use for a summary.';
const TRIAGE = "An inquiry's read flag and tag are triage in the dashboard.";
const APPOINTMENT_CHANGE = "Rescheduling, cancelling or recording an appointment's outcome is done where the appointment is managed; the Appointment Cancelled trigger reports it.";
const SAMPLES = "What the triggers read themselves for a Zap's test step (performList); no step of a Zap.";
const MCP = "The MCP endpoint is for AI agents, which call the API's tools there directly.";
const OAUTH = "OAuth grants are assistants' access through the MCP server, reviewed and revoked by the organization, not by a Zap.";

/** Every keyed route no Zapier action calls, by operationId (a PATCH alias goes with the route it aliases), with why. */
export const EXCLUDED: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    [
      ['getLead', 'listLeadActivities', 'listInquiries', 'getInquiry', 'listSms', 'getSms', 'listAppointments', 'getAppointment', 'listEvents', 'getEvent', 'listAuditLog'].map((id) => [id, READ]),
      ['deleteLead'].map((id) => [id, DELETE]),
      [
        'getOrganization',
        'updateOrganization',
        'listOrganizationMembers',
        'createOrganizationMember',
        'getOrganizationMember',
        'updateOrganizationMember',
        'deleteOrganizationMember',
        'listOrganizationInvitations',
        'createOrganizationInvitation',
        'acceptOrganizationInvitation',
        'deleteOrganizationInvitation',
        'listOrganizationServices',
        'createService',
        'listServices',
        'getService',
        'updateService',
        'deleteService',
        'listScenarios',
        'getScenario',
        'updateScenario',
        'listTradeCategories',
        'createProduct',
        'listProducts',
        'getProduct',
        'updateProduct',
        'deleteProduct',
        'batchUpdateProducts',
        'createTransfer',
        'listTransfers',
        'getTransfer',
        'updateTransfer',
        'deleteTransfer',
        'listPolicies',
        'createPolicy',
        'getPolicy',
        'updatePolicy',
        'deletePolicy',
        'listFaqs',
        'createFaq',
        'getFaq',
        'updateFaq',
        'deleteFaq',
      ].map((id) => [id, SETUP]),
      ['createAutomation', 'listAutomations', 'getAutomation', 'updateAutomation', 'deleteAutomation', 'listAutomationTemplates', 'listAutomationRuns', 'enrolAutomationLead', 'previewAutomation', 'getAutomationRun', 'cancelAutomationRun'].map((id) => [id, AUTOMATIONS]),
      ['createWebhook', 'listWebhooks', 'getWebhook', 'updateWebhook', 'deleteWebhook', 'rotateWebhookSecret', 'listWebhookDeliveries', 'testWebhook', 'redeliverEvent'].map((id) => [id, WEBHOOKS]),
      ['findAvailability', 'createHold', 'resolveTransfer', 'lookupCaller', 'getReceptionistContext'].map((id) => [id, LIVE_CALL]),
      ['createCompany', 'listCompanies', 'getCompany', 'updateCompany', 'deleteCompany', 'listCompanyNotes', 'createCompanyNote', 'getCompanyNote', 'updateCompanyNote', 'deleteCompanyNote'].map((id) => [id, COMPANIES]),
      ['createInboundEndpoint', 'listInboundEndpoints', 'getInboundEndpoint', 'updateInboundEndpoint', 'deleteInboundEndpoint', 'rotateInboundEndpoint'].map((id) => [id, INBOUND]),
      ['getReportSummary', 'getReportTimeseries', 'getReportFunnel'].map((id) => [id, REPORTS]),
      ['updateInquiry'].map((id) => [id, TRIAGE]),
      ['updateAppointment'].map((id) => [id, APPOINTMENT_CHANGE]),
      ['listEventSamples'].map((id) => [id, SAMPLES]),
      ['postMcp'].map((id) => [id, MCP]),
      ['listOauthGrants', 'deleteOauthGrant'].map((id) => [id, OAUTH]),
      // ingestInquiry is called as log_call, upsertLead as upsert_lead: listed under the actions, by their tools.
    ].flat(),
  ),
};
