import { getOrganizationTimezone } from '../organization/store';

/** Each organization's timezone read once per batch: a batch's records are mostly of a few organizations. */
export function timezonesOnce(): (organizationId: string) => Promise<string> {
  const read = new Map<string, Promise<string>>();
  return (organizationId) => {
    let timezone = read.get(organizationId);
    if (!timezone) {
      timezone = getOrganizationTimezone(organizationId);
      read.set(organizationId, timezone);
      timezone.catch(() => read.delete(organizationId));
    }
    return timezone;
  };
}
