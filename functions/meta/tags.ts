/** The groups of the API reference, in the order it shows them; a route's tag must be one of these. */
export const TAG_DESCRIPTIONS = {
  Leads: 'People who contacted the business or were added by hand, their pipeline status and their activity history.',
  Inquiries: 'Each contact from a lead — a call, an email, a chatbot conversation, an SMS thread or a web form — with its source record.',
  SMS: 'Text messages from the organization’s members to leads.',
  Appointments: 'Visits and calls booked with leads, with the members attending; no member is booked twice at once.',
  Companies: 'Customer businesses (strata managers, builders, agencies) and the team’s notes on them.',
  Organization: 'The organization the API key belongs to: its settings, members, invitations and services by trade category.',
  Services: 'Trade services the business offers, each with the AI-receptionist scenario it starts with.',
  Scenarios: 'What the AI receptionist says and asks when a caller wants a service.',
  Products: 'Trade products with their pricing, including sequential batch updates with per-item results.',
  Transfers: 'Rules for when and where the AI receptionist hands a call over to a person.',
  Policies: 'Business policies the AI receptionist can quote: cancellations, warranties, payment terms.',
  FAQs: 'Questions and answers the AI receptionist answers callers from.',
  Events: 'What changed in the organization, newest first: the events webhook subscriptions deliver.',
  Webhooks: 'Subscriptions that receive events as signed HTTP POSTs (Standard Webhooks), retried for 24 hours, with every attempt logged.',
  Inbound: 'URLs that web forms, email parsers and call or chat agents post inquiries to, with a token or a Standard Webhooks signature instead of an API key.',
  Reference: 'This description of the API and its reference page.',
} as const;

export type Tag = keyof typeof TAG_DESCRIPTIONS;
