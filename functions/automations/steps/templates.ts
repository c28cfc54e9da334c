import { COMMON_VARIABLES, NULLABLE_VARIABLES, TRIGGERS, type TriggerName } from '../catalog';
import type { Step } from './schema';

/**
 * Message templates: text with `{{ variable }}` or `{{ variable | fallback }}` placeholders. A create or PATCH checks
 * each against the trigger that will supply its values (`templateFaults`), so a run never renders a blank or an
 * unknown name; a run writes the values in (`renderTemplate`).
 */

/** Values by variable (`lead.firstName`); null or absent: the template's fallback is used. */
export type TemplateValues = Readonly<Record<string, string | null | undefined>>;

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const VARIABLE = /^\s*([\w.]+)\s*(?:\|(.*))?$/s;

/** A `{{…}}`'s variable (undefined when it names none) and its fallback. */
function placeholder(inner: string): { variable: string | undefined; fallback: string | undefined } {
  const [, variable, fallback] = VARIABLE.exec(inner) ?? [];
  return { variable, fallback: fallback?.trim() };
}

/** Each `{{…}}` of the template, as written, with its variable and fallback. */
const placeholders = (template: string) => [...template.matchAll(PLACEHOLDER)].map(([text, inner]) => ({ text, ...placeholder(inner!) }));

/** The template with each `{{ variable }}` / `{{ variable | fallback }}` written out; values are text, never read again as templates. */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (text, inner: string) => {
    const { variable, fallback } = placeholder(inner);
    return variable === undefined ? text : (values[variable] ?? fallback ?? '');
  });
}

/**
 * A part of a template for the owner to write (`[[your review page link]]`), as a recipe leaves it: an automation may be
 * saved holding one, but not switched on, so no customer is ever sent it.
 */
const FILL_IN = /\[\[[^[\]]*\]\]/g;

/** Each `[[…]]` of the template still to be filled in, as written. */
export const fillInsOf = (template: string): string[] => template.match(FILL_IN) ?? [];

/** Every variable a template of any trigger may name. */
const KNOWN_VARIABLES = new Set<string>([...COMMON_VARIABLES, ...Object.values(TRIGGERS).flatMap((trigger) => trigger.variables)]);

/** The kinds of step that have a template. */
export type TemplateStepType = Extract<Step, { template: string }>['type'];

/** What each kind of step with a template supplies beyond its trigger: `notify_member` its member, whose first name is never empty. */
const STEP_VARIABLES = { send_sms: [], notify_member: ['member.firstName'], add_note: [] } as const satisfies Record<TemplateStepType, readonly string[]>;

/** The variables a step's template may name under a trigger: every trigger's (the lead, the organization), the trigger's own, and the step's. */
function suppliedVariables(trigger: TriggerName, step: TemplateStepType): { supplied: Set<string>; nullable: Set<string> } {
  const supplied = new Set<string>([...COMMON_VARIABLES, ...TRIGGERS[trigger].variables]);
  const nullable = new Set(NULLABLE_VARIABLES);
  for (const variable of STEP_VARIABLES[step]) {
    supplied.add(variable);
    nullable.delete(variable);
  }
  return { supplied, nullable };
}

/** What is wrong with a step's template under its trigger, in words (empty when nothing is). */
export function templateFaults(template: string, trigger: TriggerName, step: TemplateStepType): string[] {
  const { supplied, nullable } = suppliedVariables(trigger, step);
  const faults = placeholders(template).map(({ text, variable, fallback }) => {
    if (variable === undefined) return `${text} names no variable; write {{lead.firstName|there}}`;
    if (!KNOWN_VARIABLES.has(variable)) return `{{${variable}}} is not a variable; the variables are ${[...KNOWN_VARIABLES].join(', ')}`;
    if (!supplied.has(variable)) return `{{${variable}}} is not supplied by the ${trigger} trigger; it supplies ${[...supplied].join(', ')}`;
    if (nullable.has(variable) && !fallback) return `{{${variable}}} may be empty: give a fallback, e.g. {{${variable}|there}}`;
    return undefined;
  });
  const unpaired = template.replace(PLACEHOLDER, '');
  if (unpaired.includes('{{') || unpaired.includes('}}')) faults.push('has a {{ or }} without its pair');
  return faults.filter((fault) => fault !== undefined);
}
