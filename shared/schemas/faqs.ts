import * as v from 'valibot';
import { NonEmptyString } from './common';

export const Faq = v.object({
  id: v.pipe(v.number(), v.integer()),
  question: v.string(),
  answer: v.string(),
  isActive: v.boolean(),
});
export type Faq = v.InferOutput<typeof Faq>;

export const CreateFaqBody = v.strictObject({
  question: NonEmptyString('question', 500),
  answer: NonEmptyString('answer', 5000),
  isActive: v.optional(v.boolean('isActive must be a boolean'), true),
});
export type CreateFaqBody = v.InferOutput<typeof CreateFaqBody>;

export const FaqResponse = v.object({ faq: Faq });
