import type { IDataObject, IExecuteFunctions, IHookFunctions, IHttpRequestMethods, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { BASE_URL_END } from '../../credentials/SalesPipelineApi.credentials';

/** The credential both nodes call the API with. */
export const CREDENTIAL = 'salesPipelineApi';

/** A request to the API. */
export interface ApiRequest {
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: unknown;
	/** Sent as Idempotency-Key: the same key within 24 hours answers the first result rather than writing twice. */
	idempotencyKey?: string;
	itemIndex?: number;
}

interface Envelope {
	message?: string;
	error?: { status?: number; message?: string; code?: string };
}

/**
 * Calls the API with the credential's key at its base URL. An answer of 400 or more fails with the API's own message
 * (the envelope's `message`) and its code (`error.code`) in the description, rather than n8n's generic one for the status.
 */
export async function apiRequest(this: IExecuteFunctions | IHookFunctions, request: ApiRequest): Promise<IDataObject> {
	const { baseUrl } = await this.getCredentials<{ baseUrl: string }>(CREDENTIAL);
	const response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL, {
		method: request.method,
		baseURL: String(baseUrl).replace(BASE_URL_END, ''),
		url: request.path,
		...(request.qs && Object.keys(request.qs).length ? { qs: request.qs } : {}),
		...(request.body === undefined ? {} : { body: request.body }),
		...(request.idempotencyKey ? { headers: { 'Idempotency-Key': request.idempotencyKey } } : {}),
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	})) as { statusCode: number; body: unknown };
	if (response.statusCode >= 400) {
		const envelope = (typeof response.body === 'object' && response.body !== null ? response.body : {}) as Envelope;
		const message = envelope.message ?? envelope.error?.message ?? `The API answered ${response.statusCode}`;
		throw new NodeApiError(this.getNode(), { ...envelope } as JsonObject, {
			message,
			description: envelope.error?.code ? `${envelope.error.code} (HTTP ${response.statusCode})` : `HTTP ${response.statusCode}`,
			httpCode: String(response.statusCode),
			...(request.itemIndex === undefined ? {} : { itemIndex: request.itemIndex }),
		});
	}
	return (response.body ?? {}) as IDataObject;
}
