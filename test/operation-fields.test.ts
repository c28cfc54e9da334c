import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeOperation, labeller } from '#shared/openapi/fields';
import { buildDocument } from '../functions/meta/document';
import { buildTools, CURATED_TOOLS, IDEMPOTENCY_ARGUMENT, toolName } from '../functions/mcp/tools';
import { routes } from '../functions/resources';

/**
 * One description of an operation's fields (shared/openapi/fields.ts) for every consumer: the MCP tools, the n8n node
 * and the Zapier app name each field of a route alike, and the two that show labels label it alike. The integrations'
 * committed files are read as they ship; their own tests check that they are what generate writes now.
 */

type Json = Record<string, any>;
const document = buildDocument();
const fieldLabel = labeller(document);
// A member's own routes (sessionOnly) are offered by no MCP tool or integration.
const keyed = routes.filter((route) => route.auth !== 'none' && !route.path.startsWith('/mcp') && route.aliasOf === undefined && !route.sessionOnly);
const described = new Map(keyed.map((route) => [route.operationId, describeOperation(document, route)]));
/** A route's fields by name, with their labels: what every consumer must show of it. */
const labelsOf = (operationId: string, paging: boolean) => {
  const { fields, body } = described.get(operationId)!;
  const own = fields.filter((field) => paging || !field.paging).map((field) => [field.name, field.label]);
  return Object.fromEntries(body && 'whole' in body ? [...own, ['body', 'Body']] : own);
};

describe('the fields of every route', () => {
  it('are the arguments of its MCP tool, paging and the idempotency key beside them', () => {
    const tools = new Map(buildTools(document, routes).map((tool) => [tool.name, tool]));
    const curated = new Set(CURATED_TOOLS.map((tool) => tool.name));
    for (const route of keyed.filter((route) => !curated.has(toolName(route.operationId)))) {
      const tool = tools.get(toolName(route.operationId))!;
      const names = Object.keys(tool.inputSchema.properties).filter((name) => name !== IDEMPOTENCY_ARGUMENT);
      expect(names.sort(), route.operationId).toEqual(Object.keys(labelsOf(route.operationId, true)).sort());
    }
  });

  it('are the n8n operation’s fields, with the same labels, its own paging (Return All, Limit) in place of the list’s', () => {
    const { properties } = JSON.parse(readFileSync('integrations/n8n/nodes/SalesPipeline/operations.json', 'utf8')) as { properties: Json[] };
    for (const route of keyed) {
      const own = properties.filter((property) => property.name !== 'operation' && property.displayOptions?.show?.operation?.includes(route.operationId));
      const shown = own.flatMap((property) => (property.type === 'collection' ? property.options : [property])).filter((property: Json) => !(described.get(route.operationId)!.list && ['returnAll', 'limit'].includes(property.name)));
      expect(Object.fromEntries(shown.map((property: Json) => [property.name, property.displayName])), route.operationId).toEqual(labelsOf(route.operationId, false));
    }
  });

  it('are labelled in the Zapier app’s actions as the route labels them, a field a curated tool lifts from an object and a line item’s by the same rule', () => {
    const { creates, searches } = JSON.parse(readFileSync('integrations/zapier/generated.json', 'utf8')) as { creates: Json[]; searches: Json[] };
    for (const action of [...creates, ...searches]) {
      const labels = labelsOf(action.operationId, true);
      for (const field of action.fields.filter((field: Json) => field.key !== IDEMPOTENCY_ARGUMENT)) {
        expect({ action: action.key, field: field.key, label: field.label }).toEqual({ action: action.key, field: field.key, label: labels[field.key] ?? fieldLabel(field.key) });
        // A line item's fields (an appointment's attendees) by the same rule.
        for (const child of field.children ?? []) expect({ action: action.key, field: child.key, label: child.label }).toEqual({ action: action.key, field: child.key, label: fieldLabel(child.key) });
      }
    }
    expect(creates.length + searches.length).toBeGreaterThan(0);
  });

  it('labels acronyms as words of their own, and the words the reference’s groups spell so: Member IDs, SMS Sender ID, FAQ ID', () => {
    expect(['memberIds', 'smsSenderId', 'webhookUrl', 'createdAt', 'faqId'].map(fieldLabel)).toEqual(['Member IDs', 'SMS Sender ID', 'Webhook URL', 'Created At', 'FAQ ID']);
  });
});
