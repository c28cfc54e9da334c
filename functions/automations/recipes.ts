import type { Step } from './steps/schema';
import type { QuietHours, StopCondition, TriggerName } from './catalog';

/** What a recipe sets up: the fields of a create, which `fromTemplate` starts from and the request's own fields replace. */
export interface RecipeAutomation {
  name: string;
  trigger: { event: TriggerName; filter?: Readonly<Record<string, string | readonly string[]>> };
  steps: readonly Step[];
  stopWhen?: readonly StopCondition[];
  quietHours?: QuietHours;
  /** Off for a recipe with a part to fill in (`[[…]]`): it can be switched on once the owner has written it. */
  isEnabled?: false;
}

export interface Recipe {
  id: string;
  name: string;
  description: string;
  automation: RecipeAutomation;
}

const sms = (template: string): Step => ({ type: 'send_sms', template });

/**
 * One text at once, for the automation of the recipe's name: an answer the business owes, so it stops when the lead
 * replies or a member reaches them first (a canned text after the owner's own would read as the business not listening).
 */
function instantReply({ id, name, description, trigger, text }: Omit<Recipe, 'automation'> & { trigger: RecipeAutomation['trigger']; text: string }): Recipe {
  return { id, name, description, automation: { name, trigger, steps: [sms(text)], stopWhen: ['lead.replied', 'member.contacted'] } };
}

/** The automations most trades businesses start with (GET /v1/automation-templates), each valid as it stands. */
export const RECIPES = [
  instantReply({
    id: 'missed_call_text_back',
    name: 'Missed-call text-back',
    description: 'Texts a caller whose call was missed at once, so the job is not lost to the next business they call; stops when they reply or a member texts them first.',
    trigger: { event: 'call.missed' },
    text: "Sorry we missed your call, {{lead.firstName|there}}. This is {{organization.name}}: reply here and we'll call you back.",
  }),
  instantReply({
    id: 'webform_instant_reply',
    name: 'Web-form instant reply',
    description: 'Answers a web-form enquiry within the minute, in allowed hours; stops when the lead replies or a member texts them first.',
    trigger: { event: 'inquiry.created', filter: { source: 'WEBFORM' } },
    text: 'Thanks {{lead.firstName|there}}, we got your request and will be in touch today.',
  }),
  {
    id: 'appointment_reminders',
    name: 'Appointment reminders',
    description: 'Confirms a booking, then reminds the lead a day and two hours before it starts; stops when the appointment is cancelled.',
    automation: {
      name: 'Appointment reminders',
      trigger: { event: 'appointment.booked' },
      steps: [
        sms('Hi {{lead.firstName|there}}, you are booked with {{organization.name}} for {{appointment.startsAt}}. Reply to this message to change it.'),
        { type: 'wait', before: 'appointment.startsAt', duration: 'P1D' },
        sms('Reminder: {{organization.name}} sees you tomorrow, {{appointment.startsAt}}.'),
        { type: 'wait', before: 'appointment.startsAt', duration: 'PT2H' },
        sms('See you soon: {{organization.name}} arrives at {{appointment.startsAt}}.'),
      ],
      stopWhen: ['appointment.cancelled'],
    },
  },
  {
    id: 'quote_follow_up',
    name: 'Quote follow-up',
    description: 'Follows a quote up two days after it is sent, and again three days later; stops when the lead replies, a member texts them, or its status moves on.',
    automation: {
      name: 'Quote follow-up',
      trigger: { event: 'lead.status_changed', filter: { to: 'QUOTED' } },
      steps: [
        { type: 'wait', duration: 'P2D' },
        sms('Hi {{lead.firstName|there}}, just checking you got our quote. Any questions, reply here. {{organization.name}}'),
        { type: 'wait', duration: 'P3D' },
        sms('Hi {{lead.firstName|there}}, our quote is still open. Reply YES and we will lock in a time. {{organization.name}}'),
      ],
      stopWhen: ['lead.replied', 'lead.status_changed', 'member.contacted'],
    },
  },
  {
    id: 'review_request',
    name: 'Review request',
    description: 'Asks for a review two hours after a job is marked completed. Made off: replace [[your review page link]] with the link to your review page, then switch it on.',
    automation: {
      name: 'Review request',
      trigger: { event: 'appointment.completed' },
      steps: [{ type: 'wait', duration: 'PT2H' }, sms('Thanks for choosing {{organization.name}}, {{lead.firstName|there}}! Would you leave us a review? [[your review page link]]')],
      isEnabled: false,
    },
  },
] as const satisfies readonly Recipe[];

export type RecipeId = (typeof RECIPES)[number]['id'];
export const RECIPE_IDS = RECIPES.map((recipe) => recipe.id) as RecipeId[];

export const recipeOf = (id: RecipeId): Recipe => RECIPES.find((recipe) => recipe.id === id)!;
