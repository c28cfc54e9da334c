import { useEffect } from 'preact/hooks';
import { answer, api } from './api';
import { useSession } from './session';
import { store, useStore } from './store';
import type { Organization } from './types';

/** The organization's settings several screens read (its currency, hours, timezone): read once, replaced after a change. */
const organization = store<Organization | undefined>(undefined);
let reading: string | undefined;

export const setOrganization = (next: Organization) => organization.set(next);

/** The signed-in member's organization, read at the first screen that asks and again when another is signed in to. */
export function useOrganization(): Organization | undefined {
  const signedInto = useSession()?.organization.id;
  const value = useStore(organization);
  useEffect(() => {
    if (!signedInto || value?.id === signedInto || reading === signedInto) return;
    reading = signedInto;
    answer(api.GET('/v1/organization')).then(
      (answer) => organization.set(answer.organization),
      // Amounts then show in the default currency and times in the browser's zone; the next screen that asks reads it again.
      () => undefined,
    ).finally(() => {
      reading = undefined;
    });
  }, [signedInto, value?.id]);
  return value?.id === signedInto ? value : undefined;
}
