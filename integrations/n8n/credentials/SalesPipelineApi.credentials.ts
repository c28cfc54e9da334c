import type { IAuthenticateGeneric, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * What ends a base URL as people paste it: trailing slashes, and the version segment `/v1` (the Zapier app takes it,
 * and the API's own examples show it), which the nodes add to every path themselves.
 */
export const BASE_URL_END = /(?:\/+v1)?\/*$/;

/** An organization's API key and the API's base URL, tested by reading the organization the key belongs to. */
export class SalesPipelineApi implements ICredentialType {
	name = 'salesPipelineApi';

	displayName = 'Sales Pipeline API';

	icon: Icon = { light: 'file:../icons/salesPipeline.svg', dark: 'file:../icons/salesPipeline.dark.svg' };

	documentationUrl = 'https://github.com/sales-pipeline/sales-pipeline-service/blob/main/docs/integrations-n8n.md';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: "The organization's API key (sp_live_…), sent as a bearer token",
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: 'http://localhost:3000',
			description: 'Where the API answers, e.g. https://api.example.com/prod (a trailing /v1 is taken too)',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
	};

	test: ICredentialTestRequest = {
		request: { baseURL: `={{$credentials.baseUrl.replace(${BASE_URL_END}, "")}}`, url: '/v1/organization' },
	};
}
