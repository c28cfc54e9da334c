import * as v from 'valibot';
import { Timestamp, integerString } from '../../shared/schema';

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

/** What the voice agent does once the scenario's questions are answered. */
export const ScenarioOutcome = v.object({
  type: v.string(),
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

export const ScenarioIdPath = v.object({ scenarioId: integerString('scenarioId') });
export const ScenarioResponse = v.object({ scenario: Scenario });
