import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription, JsonObject } from 'n8n-workflow';
import { jsonParse, NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import generated from './operations.json';
import type { OperationRequest } from './request';
import { apiRequest, CREDENTIAL } from './transport';

const { properties, requests } = generated as unknown as { properties: INodeProperties[]; requests: Record<string, OperationRequest> };

/** The most a list answers per page: Return All walks the cursor 100 at a time. */
const PAGE_LIMIT = 100;

/** A field's value as the API takes it: JSON fields parsed from their text, empty text and empty choices left out. */
function valueOf(this: IExecuteFunctions, request: OperationRequest, name: string, value: unknown, itemIndex: number): unknown {
	if (!request.json.includes(name) || typeof value !== 'string') return value;
	try {
		return jsonParse(value);
	} catch (error) {
		throw new NodeOperationError(this.getNode(), `${name} must be JSON`, { itemIndex, description: (error as Error).message });
	}
}

const given = (value: unknown) => value !== undefined && value !== '' && value !== null;

export class SalesPipeline implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Sales Pipeline',
		name: 'salesPipeline',
		icon: { light: 'file:../../icons/salesPipeline.svg', dark: 'file:../../icons/salesPipeline.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"]}}',
		description: 'Read and write leads, inquiries, appointments, SMS and the rest of the Sales Pipeline API',
		defaults: { name: 'Sales Pipeline' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL, required: true }],
		properties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const returned: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			const operation = this.getNodeParameter('operation', itemIndex) as string;
			const request = requests[operation];
			if (!request) throw new NodeOperationError(this.getNode(), `Unknown operation ${operation}`, { itemIndex });
			const parameter = (name: string, fallback?: unknown) => valueOf.call(this, request, name, this.getNodeParameter(name, itemIndex, fallback), itemIndex);
			const path = request.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(parameter(name))));
			const qs: IDataObject = {};
			for (const name of request.query.required) qs[name] = parameter(name) as string;
			const optionalQuery = this.getNodeParameter(request.method === 'GET' ? 'filters' : 'options', itemIndex, {}) as IDataObject;
			for (const name of request.query.optional) if (given(optionalQuery[name])) qs[name] = valueOf.call(this, request, name, optionalQuery[name], itemIndex) as string;
			let body: unknown;
			if (request.body === 'json') body = parameter('body', '{}');
			else if (request.body) {
				const fields: IDataObject = {};
				for (const name of request.body.required) fields[name] = parameter(name) as IDataObject[string];
				const more = this.getNodeParameter(request.method === 'POST' ? 'additionalFields' : 'updateFields', itemIndex, {}) as IDataObject;
				for (const name of request.body.optional) if (given(more[name])) fields[name] = valueOf.call(this, request, name, more[name], itemIndex) as IDataObject[string];
				body = fields;
			}
			// One key per execution, node and item: n8n's Retry On Fail sends the same write again, which the API answers once.
			const executionId = this.getExecutionId();
			const idempotencyKey = request.method === 'POST' && executionId ? `n8n-${executionId}-${this.getNode().id}-${itemIndex}` : undefined;
			try {
				if (request.list) {
					const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
					const limit = returnAll ? PAGE_LIMIT : (this.getNodeParameter('limit', itemIndex, 50) as number);
					let cursor: string | undefined;
					do {
						const page = await apiRequest.call(this, { method: request.method, path, qs: { ...qs, limit, ...(cursor ? { cursor } : {}) }, itemIndex });
						for (const record of (page[request.list] as IDataObject[]) ?? []) returned.push({ json: record, pairedItem: { item: itemIndex } });
						cursor = returnAll && typeof page.nextCursor === 'string' ? page.nextCursor : undefined;
					} while (cursor);
				} else {
					const answer = await apiRequest.call(this, { method: request.method, path, qs, body, idempotencyKey, itemIndex });
					returned.push({ json: answer, pairedItem: { item: itemIndex } });
				}
			} catch (error) {
				if (!this.continueOnFail()) throw new NodeApiError(this.getNode(), error as JsonObject, { itemIndex });
				returned.push({ json: { error: (error as Error).message }, pairedItem: { item: itemIndex } });
			}
		}
		return [returned];
	}
}
