import * as v from 'valibot';
import { DeletedSchema, PageQuery, pageSchema, partialUpdateBody, PrefixedId } from '#shared/schema';
import { automationEntity } from './attributes';
import { RECIPE_IDS } from './recipes';

export const Automation = automationEntity.Record;
export type Automation = v.InferOutput<typeof Automation>;

const fields = automationEntity.change;
const TemplateId = v.picklist(RECIPE_IDS, `fromTemplate must be one of ${RECIPE_IDS.join(', ')}`);

/** What a create without a recipe must name: every recipe has them. */
const REQUIRED_WITHOUT_RECIPE = Object.entries(automationEntity.create)
  .filter(([, schema]) => schema.type !== 'optional')
  .map(([name]) => name);

/**
 * The fields of an automation, or a recipe's id (`fromTemplate`) and any of them to put in place of the recipe's. No
 * default is filled in here, so a field left out keeps the recipe's; name, trigger and steps are required of the result,
 * so of a body without `fromTemplate` (rules.ts checks it; the document says it).
 */
export const CreateAutomationBody = v.pipe(
  v.strictObject({
    fromTemplate: v.optional(v.pipe(TemplateId, v.description('A recipe of GET /v1/automation-templates to start from: its fields, each replaced by the same field of this body.'))),
    ...Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, v.optional(schema)])) as { [K in keyof typeof fields]: v.OptionalSchema<(typeof fields)[K], undefined> },
  }),
  v.metadata({ jsonSchema: { anyOf: [{ required: ['fromTemplate'] }, { required: REQUIRED_WITHOUT_RECIPE }] } }),
);
export type CreateAutomationBody = v.InferOutput<typeof CreateAutomationBody>;

/** Any subset of the fields; `steps` (and `trigger`, `quietHours`) replace the automation's whole. */
export const UpdateAutomationBody = partialUpdateBody(fields);
export type AutomationChanges = v.InferOutput<typeof UpdateAutomationBody>;

export const AutomationIdPath = v.object({ automationId: PrefixedId('automation', 'automationId') });
export const AutomationResponse = v.object({ automation: Automation });

/** A write's answer; `signingSecret` only from the write that first gave the automation a webhook step. */
export const AutomationWriteResponse = v.object({
  automation: Automation,
  signingSecret: v.optional(
    v.pipe(v.string(), v.description('The `whsec_…` secret the webhook steps sign with (Standard Webhooks): answered once, by the write that first gives the automation a webhook step, and never again.')),
  ),
});

export const AutomationPage = pageSchema('automations', Automation);
export const AutomationDeleted = DeletedSchema;
export const ListAutomationsQuery = PageQuery;

export const AutomationTemplate = v.object({
  id: v.string(),
  name: v.string(),
  description: v.string(),
  /** The automation it makes, as a create takes it. */
  automation: v.object({
    name: v.string(),
    trigger: Automation.entries.trigger,
    steps: Automation.entries.steps,
    stopWhen: v.optional(Automation.entries.stopWhen),
    isEnabled: v.optional(v.pipe(v.literal(false), v.description('false: a step’s text holds a part for you to fill in (`[[…]]`), so it is made off.'))),
  }),
});
export const AutomationTemplateList = v.object({ templates: v.array(AutomationTemplate) });
