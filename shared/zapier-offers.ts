/**
 * What the Zapier app offers of a resource, declared in its definition (`zapier`): its instant triggers by event type,
 * its creates and searches by the API tool each calls (the MCP tools, whose arguments are the route's fields). A
 * resource without one offers nothing there; integrations/zapier/generate.ts reads them all through the list of
 * resources, so a new route or resource changes the app only when it says so.
 */

/** An event passes a trigger when every `where` field of its data has that value and every `changed` field changed. */
export interface EventFilter {
  where?: Record<string, string | boolean>;
  /** Fields the event's `previousAttributes` names: changed by this update. */
  changed?: string[];
}

export interface ZapierTrigger {
  key: string;
  noun: string;
  label: string;
  description: string;
  /** The event type subscribed to; undefined: the one the Zap chooses (any event type). */
  eventType?: string;
  filter?: EventFilter;
}

export interface ZapierAction {
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

export interface ZapierOffers {
  /** Instant triggers (REST hooks) on its event types. */
  triggers?: readonly ZapierTrigger[];
  /** The writes a Zap makes. */
  creates?: readonly ZapierAction[];
  /** The records a Zap looks up: each answers a list. */
  searches?: readonly ZapierAction[];
  /** A search with the create that runs when it finds nothing ("create if not found"), by their keys. */
  searchOrCreates?: readonly { search: string; create: string; label: string }[];
}
