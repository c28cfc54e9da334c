import type { IDataObject, IHookFunctions, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { apiRequest, CREDENTIAL } from '../SalesPipeline/transport';
import generated from './events.json';
import { refusalOf } from './signature';

/** The subscription this trigger made, kept in the workflow's static data: its id, and the secret its deliveries are signed with. */
interface Subscription {
	webhookId?: string;
	secret?: string;
}

interface Webhook {
	id: string;
	url: string;
	events: string[];
	isEnabled?: boolean;
	secret?: string;
}

const sameEvents = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join(' ') === [...b].sort().join(' ');

/** The chosen event types, and the URL n8n receives this node's deliveries at. */
function wanted(this: IHookFunctions) {
	return { url: this.getNodeWebhookUrl('default') as string, events: this.getNodeParameter('events', []) as string[] };
}

/** The API's subscriptions to this node's URL (a URL n8n made for this node alone). */
async function subscriptionsAt(this: IHookFunctions, url: string): Promise<Webhook[]> {
	const page = await apiRequest.call(this, { method: 'GET', path: '/v1/webhooks', qs: { url, limit: 100 } });
	return ((page.webhooks ?? []) as unknown as Webhook[]).filter((webhook) => webhook.url === url);
}

export class SalesPipelineTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Sales Pipeline Trigger',
		name: 'salesPipelineTrigger',
		icon: { light: 'file:../../icons/salesPipeline.svg', dark: 'file:../../icons/salesPipeline.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts the workflow when the Sales Pipeline API sends one of the chosen events',
		defaults: { name: 'Sales Pipeline Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL, required: true }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [],
				description: 'The event types that start the workflow',
				options: generated.events,
			},
		],
	};

	webhookMethods = {
		default: {
			/** Whether the subscription this trigger made is still there, for these events, with its secret kept. */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const kept = this.getWorkflowStaticData('node') as Subscription;
				if (!kept.webhookId || !kept.secret) return false;
				const { url, events } = wanted.call(this);
				return (await subscriptionsAt.call(this, url)).some((webhook) => webhook.id === kept.webhookId && webhook.isEnabled !== false && sameEvents(webhook.events, events));
			},

			/**
			 * Subscribes this node's URL to the chosen events. Its other subscriptions (other events, or disabled: left by
			 * an earlier activation) are removed first, so deliveries never arrive twice; the API answers the
			 * subscription to the same URL and events, with its secret, rather than making a second one.
			 */
			async create(this: IHookFunctions): Promise<boolean> {
				const { url, events } = wanted.call(this);
				for (const webhook of await subscriptionsAt.call(this, url)) {
					if (webhook.isEnabled === false || !sameEvents(webhook.events, events)) await apiRequest.call(this, { method: 'DELETE', path: `/v1/webhooks/${webhook.id}` });
				}
				const name = this.getWorkflow().name ?? this.getWorkflow().id ?? 'a workflow';
				const subscribed = (await apiRequest.call(this, { method: 'POST', path: '/v1/webhooks', body: { url, events, description: `n8n: ${name}` } })).webhook as unknown as Webhook;
				const kept = this.getWorkflowStaticData('node') as Subscription;
				kept.webhookId = subscribed.id;
				kept.secret = subscribed.secret;
				return true;
			},

			/**
			 * Unsubscribes: every subscription to this node's URL is deleted (the one it made, and any its static data
			 * no longer names), and the secret forgotten; none left counts as done.
			 */
			async delete(this: IHookFunctions): Promise<boolean> {
				const { url } = wanted.call(this);
				for (const webhook of await subscriptionsAt.call(this, url)) await apiRequest.call(this, { method: 'DELETE', path: `/v1/webhooks/${webhook.id}` });
				const kept = this.getWorkflowStaticData('node') as Subscription;
				delete kept.webhookId;
				delete kept.secret;
				return true;
			},
		},
	};

	/**
	 * A delivery: accepted only when signed with this subscription's secret within the last 5 minutes (Standard
	 * Webhooks); otherwise refused with 401 and the workflow not started.
	 */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const kept = this.getWorkflowStaticData('node') as Subscription;
		const request = this.getRequestObject();
		const header = (name: string) => {
			const value = request.headers[name];
			return Array.isArray(value) ? value.join(' ') : value;
		};
		const raw = Buffer.isBuffer(request.rawBody) ? request.rawBody : Buffer.from(typeof request.rawBody === 'string' ? request.rawBody : JSON.stringify(request.body ?? {}));
		const refusal = kept.secret ? refusalOf(kept.secret, { id: header('webhook-id'), timestamp: header('webhook-timestamp'), signature: header('webhook-signature') }, raw, Math.floor(Date.now() / 1000)) : 'wrong signature';
		if (refusal) {
			this.getResponseObject().status(401).json({ message: `Refused: ${refusal}` });
			return { noWebhookResponse: true };
		}
		return { workflowData: [this.helpers.returnJsonArray(this.getBodyData() as IDataObject)] };
	}
}
