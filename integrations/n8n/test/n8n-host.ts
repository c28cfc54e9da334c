import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { ExecutionLifecycleHooks, HookContext, WebhookContext, WorkflowExecute } from 'n8n-core';
import {
  ICredentialsHelper,
  isExpression,
  Workflow,
  type ICredentialDataDecryptedObject,
  type ICredentialType,
  type IDataObject,
  type IHttpRequestOptions,
  type INode,
  type INodeExecutionData,
  type INodeType,
  type INodeTypes,
  type IRun,
  type IWebhookData,
  type IWorkflowExecuteAdditionalData,
  type WorkflowActivateMode,
} from 'n8n-workflow';
import { SalesPipelineApi } from '../credentials/SalesPipelineApi.credentials';
import { SalesPipeline } from '../nodes/SalesPipeline/SalesPipeline.node';
import { SalesPipelineTrigger } from '../nodes/SalesPipelineTrigger/SalesPipelineTrigger.node';

/**
 * What an n8n instance gives the package's nodes, and nothing more: its registry of node types, its store of
 * credentials (applying a credential's `authenticate` as n8n's CredentialsHelper does), and its webhook server (an
 * express app, as n8n's, reading the raw body). The nodes themselves run in n8n-core's own contexts and executor:
 * WorkflowExecute runs the action node, HookContext the trigger's checkExists/create/delete, WebhookContext a delivery,
 * each called as n8n's WebhookService calls them.
 */

const PACKAGE = 'n8n-nodes-sales-pipeline';
export const ACTION = `${PACKAGE}.salesPipeline`;
export const TRIGGER = `${PACKAGE}.salesPipelineTrigger`;

const types: Record<string, INodeType> = { [ACTION]: new SalesPipeline(), [TRIGGER]: new SalesPipelineTrigger() };
const nodeTypes: INodeTypes = {
  getByName: (name) => types[name]!,
  getByNameAndVersion: (name) => types[name]!,
  getKnownTypes: () => ({}),
};

const credentialType: ICredentialType = new SalesPipelineApi();

/** The instance's store of one credential, the API key and base URL the test gives. */
class CredentialStore extends ICredentialsHelper {
  constructor(private readonly data: ICredentialDataDecryptedObject) {
    super();
  }
  getParentTypes = () => [];
  isCredentialUsableByNode = () => true;
  async authenticate(credentials: ICredentialDataDecryptedObject, typeName: string, request: IHttpRequestOptions, workflow?: Workflow, node?: INode): Promise<IHttpRequestOptions> {
    if (typeName !== credentialType.name || typeof credentialType.authenticate !== 'object') return request;
    const resolve = (value: string) => (isExpression(value) ? String(workflow!.expression.getSimpleParameterValue(node!, value, 'internal', { $credentials: credentials }, undefined, '') ?? '') : value);
    for (const [place, entries] of Object.entries(credentialType.authenticate.properties)) {
      const target = ((request as unknown as Record<string, Record<string, unknown>>)[place] ??= {});
      for (const [key, value] of Object.entries(entries as Record<string, string>)) target[resolve(key)] = resolve(value);
    }
    return request;
  }
  preAuthentication = async () => undefined;
  runPreAuthentication = async () => undefined;
  getCredentials = async () => {
    throw new Error('not used: credentials are read decrypted');
  };
  getDecrypted = async () => ({ ...this.data });
  updateCredentials = async () => {};
  updateCredentialsOauthTokenData = async () => {};
  getCredentialsProperties = () => credentialType.properties;
}

/** The instance's data for one run: its credentials and where its webhooks are reached. */
function additionalDataFor(credentials: ICredentialDataDecryptedObject, webhookBaseUrl = 'http://127.0.0.1:5678/webhook'): IWorkflowExecuteAdditionalData {
  return {
    credentialsHelper: new CredentialStore(credentials),
    executeWorkflow: async () => {
      throw new Error('not used');
    },
    getRunExecutionData: async () => undefined,
    getRuntimeCredential: async () => undefined,
    currentNodeExecutionIndex: 0,
    restApiUrl: 'http://127.0.0.1:5678/rest',
    instanceBaseUrl: 'http://127.0.0.1:5678/',
    formBaseUrl: 'http://127.0.0.1:5678/form',
    formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
    formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
    webhookBaseUrl,
    webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
    webhookTestBaseUrl: webhookBaseUrl,
    mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
    mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
    variables: {},
    logAiEvent: () => {},
    executionId: randomUUID(),
  } as unknown as IWorkflowExecuteAdditionalData;
}

const CREDENTIAL_REF = { salesPipelineApi: { id: 'credential', name: 'Sales Pipeline' } };

export interface ApiCredentials {
  apiKey: string;
  baseUrl: string;
}

/**
 * Runs the action node once, as a manual execution of a one-node workflow, with these parameters (in the execution and
 * as the node given, to run the same node of the same execution again, as Retry On Fail does): its output items, or
 * the error n8n records for the run.
 */
export async function runAction(credentials: ApiCredentials, parameters: IDataObject, run: { executionId?: string; nodeId?: string } = {}): Promise<{ items: IDataObject[]; error?: { message: string; description?: string | null; httpCode?: string | null } }> {
  const node: INode = { id: run.nodeId ?? randomUUID(), name: 'Sales Pipeline', type: ACTION, typeVersion: 1, position: [0, 0], parameters: parameters as INode['parameters'], credentials: CREDENTIAL_REF };
  const workflow = new Workflow({ id: 'action', name: 'Action', nodes: [node], connections: {}, active: false, nodeTypes, staticData: {}, settings: { executionOrder: 'v1' } });
  const additionalData = additionalDataFor({ ...credentials });
  if (run.executionId) additionalData.executionId = run.executionId;
  additionalData.hooks = new ExecutionLifecycleHooks('manual', additionalData.executionId!, { id: workflow.id, name: workflow.name!, active: false, activeVersionId: null, isArchived: false, createdAt: new Date(), updatedAt: new Date(), nodes: [node], connections: {} });
  const result: IRun = await new WorkflowExecute(additionalData, 'manual').run({ workflow, startNode: node });
  const task = result.data.resultData.runData[node.name]?.[0];
  const error = (task?.error ?? result.data.resultData.error) as { message: string; description?: string | null; httpCode?: string | null } | undefined;
  const items = ((task?.data?.main?.[0] ?? []) as INodeExecutionData[]).map((item) => item.json);
  return { items, ...(error ? { error } : {}) };
}

/**
 * Tests the credential as n8n's credential test does: its `test` request, its expressions resolved with the
 * credential's values and its `authenticate` applied, sent to the API. Answers the status.
 */
export async function testCredential(credentials: ApiCredentials): Promise<number> {
  const node: INode = { id: randomUUID(), name: 'Credential test', type: ACTION, typeVersion: 1, position: [0, 0], parameters: {}, credentials: CREDENTIAL_REF };
  const workflow = new Workflow({ id: 'credential-test', nodes: [node], connections: {}, active: false, nodeTypes, staticData: {} });
  const { request } = credentialType.test!;
  const resolve = (value = '') => String(isExpression(value) ? workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: { ...credentials } }, undefined, '') : value);
  const sent = await new CredentialStore({ ...credentials }).authenticate({ ...credentials }, credentialType.name, { url: resolve(request.url), headers: {} }, workflow, node);
  return (await fetch(`${resolve(request.baseURL)}${sent.url}`, { headers: sent.headers as Record<string, string> })).status;
}

/** What the trigger workflow received: each delivery it accepted, as the items it started the workflow with. */
export interface TriggerHost {
  /** The trigger's webhook URL: what it subscribes. */
  url: string;
  workflow: Workflow;
  /** Runs checkExists, create or delete as n8n does on activation and deactivation. */
  method: (name: 'checkExists' | 'create' | 'delete', activation?: WorkflowActivateMode) => Promise<boolean | undefined>;
  /** Activates as n8n does: create only when checkExists says the subscription is missing. */
  activate: () => Promise<void>;
  started: IDataObject[][];
  /** The status each delivery was answered with. */
  answers: number[];
  close: () => Promise<void>;
}

/**
 * A trigger node for these events in an active workflow whose webhook server (n8n's own is express) listens on a
 * local port: a delivery to it runs the node's `webhook` in n8n-core's WebhookContext, as n8n's WebhookService does.
 */
export async function triggerHost(credentials: ApiCredentials, events: string[]): Promise<TriggerHost> {
  const app = express();
  const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  const node: INode = { id: randomUUID(), webhookId: randomUUID(), name: 'Sales Pipeline Trigger', type: TRIGGER, typeVersion: 1, position: [0, 0], parameters: { events }, credentials: CREDENTIAL_REF };
  const workflow = new Workflow({ id: randomUUID(), name: 'Trigger', nodes: [node], connections: {}, active: true, nodeTypes, staticData: {}, settings: { executionOrder: 'v1' } });
  const additionalData = additionalDataFor({ ...credentials }, base);
  const trigger = types[TRIGGER]!;
  const description = trigger.description.webhooks![0]!;
  const webhookData: IWebhookData = { httpMethod: 'POST', node: node.name, path: `${node.webhookId}/${description.path as string}`, webhookDescription: description, workflowId: workflow.id, workflowExecuteAdditionalData: additionalData };
  const started: IDataObject[][] = [];
  const answers: number[] = [];
  app.post(`/webhook/${webhookData.path}`, express.raw({ type: '*/*' }), async (request, response) => {
    // n8n reads the raw body once and parses it beside (its rawBodyReader and parseBody middlewares).
    const raw = request.body as Buffer;
    Object.assign(request, { rawBody: raw, body: raw.length ? JSON.parse(raw.toString('utf8')) : {} });
    const hookData = { ...additionalData, httpRequest: request, httpResponse: response } as IWorkflowExecuteAdditionalData;
    const context = new WebhookContext(workflow, node, hookData, 'webhook', webhookData, [], null);
    const result = await trigger.webhook!.call(context);
    if (result.workflowData) started.push((result.workflowData[0] ?? []).map((item) => item.json));
    if (!result.noWebhookResponse) response.status(200).json({ message: 'Workflow was started' });
    answers.push(response.statusCode);
  });
  const method: TriggerHost['method'] = async (name, activation = 'activate') => {
    const context = new HookContext(workflow, node, additionalData, 'trigger', activation, webhookData);
    return (await trigger.webhookMethods!.default![name]!.call(context)) as boolean | undefined;
  };
  return {
    url: `${base}/${webhookData.path}`,
    workflow,
    method,
    activate: async () => {
      if (!(await method('checkExists'))) await method('create');
    },
    started,
    answers,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
