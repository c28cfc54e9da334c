import * as v from 'valibot';
import { NonEmptyString, integerString, pageSchema, partialUpdateBody } from './common';

export const Policy = v.object({
  id: v.pipe(v.number(), v.integer()),
  title: v.string(),
  content: v.string(),
  isActive: v.boolean(),
});
export type Policy = v.InferOutput<typeof Policy>;

const policyFields = {
  title: NonEmptyString('title', 200),
  content: NonEmptyString('content', 20_000),
  isActive: v.boolean('isActive must be a boolean'),
};

/** A new policy's fields. No endpoint creates policies yet; the demo data is written with these. */
export const NewPolicy = v.object({ ...policyFields, isActive: v.optional(policyFields.isActive, true) });
export type NewPolicy = v.InferOutput<typeof NewPolicy>;

export const UpdatePolicyBody = partialUpdateBody(policyFields);
export type PolicyChanges = v.InferOutput<typeof UpdatePolicyBody>;

export const PolicyIdPath = v.object({ policyId: integerString('policyId') });
export const PolicyPage = pageSchema('policies', Policy);
export const PolicyResponse = v.object({ policy: Policy });
