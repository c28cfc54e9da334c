import * as v from 'valibot';
import { NotFoundError, ValidationError, type ErrorDetail } from '#shared/errors';
import { newId, now } from '#shared/ids';
import { newSigningSecret } from '#shared/signed-posts';
import { defined } from '#shared/store/changes';
import { retryOnStaleWrite } from '#shared/store/versioned';
import { parseOrThrow } from '#shared/validation';
import { resolvedRefusalOf } from '../webhooks/destination';
import { automationEntity } from './attributes';
import { TRIGGERS } from './catalog';
import type { Sealed } from '#shared/envelope-encryption';
import { sealedAsStored, sealedSigningSecret, type StoredSigningSecret } from './signing-secret';
import { recipeOf } from './recipes';
import { unhandledStep } from './steps/schema';
import type { Automation, AutomationChanges, CreateAutomationBody } from './schema';
import { deleteAutomation, getAutomation, insertAutomation, memberReach, writeAutomationVersion } from './store';
import { fillInsOf, templateFaults } from './steps/templates';

export const AUTOMATION_NOT_FOUND = 'Automation not found';
const notFound = () => new NotFoundError(AUTOMATION_NOT_FOUND);

/** The fields a create ends up with, recipe and body merged: name, trigger and steps required, the rest optional. */
const AutomationFields = v.strictObject(automationEntity.create);
type Fields = Pick<Automation, 'name' | 'isEnabled' | 'trigger' | 'steps' | 'stopWhen' | 'quietHours'>;

/** What of each step the trigger decides: the record a wait counts back from, the variables its templates may name. */
function stepFaults({ trigger, steps }: Pick<Fields, 'trigger' | 'steps'>): ErrorDetail[] {
  const { anchors } = TRIGGERS[trigger.event];
  return steps.flatMap((step, i): ErrorDetail[] => {
    switch (step.type) {
      case 'wait':
        if (step.before === undefined || (anchors as readonly string[]).includes(step.before)) return [];
        return [{ path: `steps.${i}.before`, message: `the ${trigger.event} trigger has no ${step.before} to count back from` }];
      case 'send_sms':
      case 'notify_member':
      case 'add_note':
        return templateFaults(step.template, trigger.event, step.type).map((message) => ({ path: `steps.${i}.template`, message }));
      case 'set_lead_status':
      case 'webhook':
        return [];
      default:
        return unhandledStep(step);
    }
  });
}

/** The parts of the steps' texts still to be filled in (`[[…]]`), each a fault while the automation is on. */
function unfilled(steps: Fields['steps']): ErrorDetail[] {
  return steps.flatMap((step, i) =>
    'template' in step ? fillInsOf(step.template).map((fillIn) => ({ path: `steps.${i}.template`, message: `${fillIn} is yours to fill in: replace it before the automation is switched on` })) : [],
  );
}

/** What the steps reach beyond the automation: each member to text (the organization's, with a phone), each webhook URL (not private). */
async function reachFaults(organizationId: string, steps: Fields['steps']): Promise<ErrorDetail[]> {
  const faults = await Promise.all(
    steps.map(async (step, i): Promise<ErrorDetail | undefined> => {
      switch (step.type) {
        case 'webhook': {
          const refusal = await resolvedRefusalOf(new URL(step.url));
          return refusal ? { path: `steps.${i}.url`, message: refusal } : undefined;
        }
        case 'notify_member': {
          const member = await memberReach(organizationId, step.memberId);
          if (!member) return { path: `steps.${i}.memberId`, message: `member ${step.memberId} is not a member of the organization` };
          return member.hasPhone ? undefined : { path: `steps.${i}.memberId`, message: 'the member has no phone' };
        }
        case 'wait':
        case 'send_sms':
        case 'set_lead_status':
        case 'add_note':
          return undefined;
        default:
          return unhandledStep(step);
      }
    }),
  );
  return faults.filter((fault) => fault !== undefined);
}

/** Checks what the schema cannot: the steps against the trigger's record and variables, and (when the steps are new) what they reach. */
async function check(organizationId: string, fields: Fields, { stepsSent }: { stepsSent: boolean }): Promise<void> {
  const faults = [...stepFaults(fields), ...(fields.isEnabled ? unfilled(fields.steps) : [])];
  if (faults.length === 0 && stepsSent) faults.push(...(await reachFaults(organizationId, fields.steps)));
  if (faults.length > 0) throw new ValidationError(faults);
}

/**
 * The secret webhook steps sign with, as the automation's items hold it (sealed): kept once made (one written before
 * sealing is sealed now); made at the first write with a webhook step, and then answered (`made`) that once.
 */
async function secretFor(organizationId: string, automation: Automation, kept: StoredSigningSecret | undefined): Promise<{ stored?: Sealed; made?: string }> {
  if (kept !== undefined) return { stored: await sealedAsStored(organizationId, automation.id, kept) };
  if (!automation.steps.some((step) => step.type === 'webhook')) return {};
  const made = newSigningSecret();
  return { stored: await sealedSigningSecret(organizationId, automation.id, made), made };
}

/** What a write answers: the automation, and its secret when this write made it. */
const answer = (automation: Automation, made: string | undefined) => ({ automation, ...(made ? { signingSecret: made } : {}) });

/** A create, from the body's fields or a recipe's with the body's in their place (a shallow merge), checked as one. */
export async function createAutomation(organizationId: string, { fromTemplate, ...own }: CreateAutomationBody) {
  const recipe = fromTemplate ? recipeOf(fromTemplate).automation : {};
  const fields = { ...automationEntity.defaults, ...defined(parseOrThrow(AutomationFields, { ...recipe, ...defined(own) }, 'body')) } as Fields;
  await check(organizationId, fields, { stepsSent: true });
  const at = now();
  const automation: Automation = { id: newId('automation'), ...fields, fromTemplate: fromTemplate ?? null, version: 1, createdAt: at, updatedAt: at };
  const { stored, made } = await secretFor(organizationId, automation, undefined);
  await insertAutomation(organizationId, { automation, signingSecret: stored });
  return answer(automation, made);
}

export async function readAutomation(organizationId: string, automationId: string): Promise<Automation> {
  const found = await getAutomation(organizationId, automationId);
  if (!found) throw notFound();
  return found.automation;
}

/** Any subset of the fields, each replacing the automation's whole (steps too), as its next version; a lost race is read again. */
export async function updateAutomation(organizationId: string, automationId: string, changes: AutomationChanges) {
  return retryOnStaleWrite(async () => {
    const current = await getAutomation(organizationId, automationId);
    if (!current) throw notFound();
    const { version } = current.automation;
    const automation: Automation = { ...current.automation, ...defined(changes), version: version + 1, updatedAt: now() };
    await check(organizationId, automation, { stepsSent: changes.steps !== undefined });
    const { stored, made } = await secretFor(organizationId, automation, current.signingSecret);
    await writeAutomationVersion(organizationId, current, { automation, signingSecret: stored });
    return answer(automation, made);
  });
}

export async function removeAutomation(organizationId: string, automationId: string): Promise<void> {
  await deleteAutomation(organizationId, automationId, notFound);
}
