import * as v from 'valibot';
import { booleanString } from '#shared/filters';
import { NonEmptyString, OptionalText, PageQuery, Timestamp, integerString, pageSchema, partialUpdateBody } from '#shared/schema';

const Integer = v.pipe(v.number(), v.integer());

export const AnswerOption = v.object({
  answer: v.string(),
  followUps: v.array(v.object({ question: v.string() })),
});

export const ScenarioQuestion = v.object({
  question: v.string(),
  answerOptions: v.array(AnswerOption),
});
export type ScenarioQuestion = v.InferOutput<typeof ScenarioQuestion>;

/** What the voice agent does once the scenario's questions are answered, each with what its properties hold. */
export const OUTCOME_TYPES = {
  continueCall: 'carry on with the call (the default of a new service’s scenario); no properties',
  transferCall: 'hand the call over by a transfer rule: property1 is the rule’s label (GET /v1/transfers)',
  bookAppointment: 'offer the caller a slot of the service (GET /v1/availability) and hold it; no properties',
  takeMessage: 'take the caller’s details for a call back; property1, if set, is what to tell the caller about when',
  endCall: 'close the call; property1, if set, is what to say before hanging up',
} as const;
export type OutcomeType = keyof typeof OUTCOME_TYPES;
const outcomeTypes = Object.keys(OUTCOME_TYPES) as [OutcomeType, ...OutcomeType[]];
const outcomeMeanings = `${outcomeTypes.map((type) => `\`${type}\`: ${OUTCOME_TYPES[type]}`).join('; ')}. property2 is for the agent platform’s own use.`;

export const ScenarioOutcome = v.object({
  // Answered as stored: a scenario changed before the types were fixed keeps the text it was given.
  type: v.pipe(v.string(), v.description(`One of ${outcomeTypes.join(', ')} (as PATCH /v1/scenarios/{scenarioId} takes them): ${outcomeMeanings}`)),
  property1: v.nullable(v.string()),
  property2: v.nullable(v.string()),
});
export type ScenarioOutcome = v.InferOutput<typeof ScenarioOutcome>;

export const Scenario = v.object({
  id: Integer,
  name: v.string(),
  prompt: v.string(),
  response: v.string(),
  isActive: v.boolean(),
  questions: v.array(ScenarioQuestion),
  outcome: ScenarioOutcome,
  tradeServiceId: v.nullable(Integer),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Scenario = v.InferOutput<typeof Scenario>;

/** The form nested in a service. */
export const ScenarioSummary = v.object({
  id: Integer,
  response: v.string(),
  questions: v.array(ScenarioQuestion),
  outcome: ScenarioOutcome,
});
export type ScenarioSummary = v.InferOutput<typeof ScenarioSummary>;

/**
 * At most this many records may name a scenario its service's delete clears: 4 writes, the service's and the
 * scenario's audit entries, and 2 per link fit in a transaction of 100.
 */
export const MAX_SCENARIO_LINKS = 47;

export const ScenarioIdPath = v.object({ scenarioId: integerString('scenarioId') });
export const ScenarioResponse = v.object({ scenario: Scenario });
export const ScenarioPage = pageSchema('scenarios', Scenario);

/** The list's filters: active or not, and the service a scenario belongs to (one that does not exist lists none). */
export const ListScenariosQuery = v.object({
  ...PageQuery.entries,
  isActive: v.optional(booleanString('isActive')),
  tradeServiceId: v.optional(integerString('tradeServiceId')),
});
export type ListScenariosQuery = v.InferOutput<typeof ListScenariosQuery>;

/** Text the receptionist says or follows: may be empty, at most `max` characters. */

const QuestionInput = v.strictObject(
  {
    question: NonEmptyString('question', 500),
    answerOptions: v.optional(
      v.pipe(
        v.array(
          v.strictObject(
            {
              answer: NonEmptyString('answer', 200),
              followUps: v.optional(
                v.pipe(
                  v.array(v.strictObject({ question: NonEmptyString('followUps question', 500) }, 'each follow-up must be an object with a question'), 'followUps must be an array'),
                  v.maxLength(10, 'followUps may have at most 10 questions'),
                ),
                [],
              ),
            },
            'each answer option must be an object with an answer and its followUps',
          ),
          'answerOptions must be an array',
        ),
        v.maxLength(20, 'answerOptions may have at most 20 options'),
      ),
      [],
    ),
  },
  'each question must be an object with a question and its answerOptions',
);

/**
 * A PATCH body: any non-empty subset of the scenario's fields. `questions` and `outcome` are replaced whole; the
 * service's nested summary changes with them.
 */
export const UpdateScenarioBody = partialUpdateBody({
  name: NonEmptyString('name', 200),
  prompt: OptionalText('prompt', 10_000),
  response: OptionalText('response', 2000),
  isActive: v.boolean('isActive must be a boolean'),
  questions: v.pipe(v.array(QuestionInput, 'questions must be an array'), v.maxLength(20, 'questions may have at most 20 questions')),
  outcome: v.strictObject(
    {
      type: v.pipe(v.picklist(outcomeTypes, `outcome.type must be one of ${outcomeTypes.join(', ')}`), v.description(outcomeMeanings)),
      property1: v.optional(v.nullable(NonEmptyString('outcome.property1', 500)), null),
      property2: v.optional(v.nullable(NonEmptyString('outcome.property2', 500)), null),
    },
    'outcome must be an object with a type',
  ),
});
export type ScenarioChanges = v.InferOutput<typeof UpdateScenarioBody>;
