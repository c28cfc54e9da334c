import * as v from 'valibot';
import { NonEmptyString, deletedSchema, integerString, pageSchema, partialUpdateBody } from '../../shared/schema';

export const Faq = v.object({
  id: v.pipe(v.number(), v.integer()),
  question: v.string(),
  answer: v.string(),
  isActive: v.boolean(),
});
export type Faq = v.InferOutput<typeof Faq>;

const faqFields = {
  question: NonEmptyString('question', 500),
  answer: NonEmptyString('answer', 5000),
  isActive: v.boolean('isActive must be a boolean'),
};

export const CreateFaqBody = v.strictObject({ ...faqFields, isActive: v.optional(faqFields.isActive, true) });
export type CreateFaqBody = v.InferOutput<typeof CreateFaqBody>;

export const UpdateFaqBody = partialUpdateBody(faqFields);
export type FaqChanges = v.InferOutput<typeof UpdateFaqBody>;

export const FaqIdPath = v.object({ faqId: integerString('faqId') });
export const FaqResponse = v.object({ faq: Faq });
export const FaqPage = pageSchema('faqs', Faq);
export const FaqDeleted = deletedSchema(v.pipe(v.number(), v.integer()));
