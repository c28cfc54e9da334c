/**
 * What the action node sends for one operation: written into operations.json by integrations/n8n/tools/generate.ts
 * from the route's fields, read by SalesPipeline.node.ts's execute. Declared once, here, for both.
 */
export interface OperationRequest {
	/** One of n8n's IHttpRequestMethods, spelled here so the generator, run from the API's install, needs no n8n package. */
	method: 'DELETE' | 'GET' | 'HEAD' | 'PATCH' | 'POST' | 'PUT';
	path: string;
	/** Path parameters, each a required field of the operation. */
	pathParams: string[];
	/** Query parameters: required ones are fields of their own, the others are under Filters (GET) or Options. */
	query: { required: string[]; optional: string[] };
	/** The body's fields (required ones on their own, the others under Additional Fields or Update Fields), or one JSON field `body`. */
	body: { required: string[]; optional: string[] } | 'json' | null;
	/** Fields whose value is JSON text (arrays and objects), parsed before they are sent. */
	json: string[];
	/** A list: its items' key in the answer; the operation walks `nextCursor` with Return All. */
	list?: string;
}
