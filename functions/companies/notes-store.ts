import { crudStore, type CrudRules } from '#shared/crud/store';
import { requireExisting } from '#shared/store/transact';
import { memberKeys } from '../organization/member-entity';
import { companyNotes, unknownAuthor, type CompanyNote } from './notes';

/** A note's author must be a member's user of this organization: checked in the note's create transaction (the only one its writes run in, as notes are not versioned). */
export const noteRules: CrudRules<CompanyNote> = {
  writes: (organizationId, note) => (note?.userId ? [requireExisting(memberKeys.user(organizationId, note.userId), () => unknownAuthor(note.userId))] : []),
};

const store = crudStore(companyNotes, noteRules);

/** The note, its counter step (which fails when the company does not exist) and the author check, in one transaction. */
export const addCompanyNote = (organizationId: string, companyId: string, input: { value: string; userId: string | null }, createdAt?: string): Promise<CompanyNote> =>
  store.create({ organizationId, parentId: companyId }, input, createdAt);
