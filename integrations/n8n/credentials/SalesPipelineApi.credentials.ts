import type { IAuthenticateGeneric, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

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
			description: 'Where the API answers, without a trailing slash',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
	};

	test: ICredentialTestRequest = {
		request: { baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}', url: '/v1/organization' },
	};
}
