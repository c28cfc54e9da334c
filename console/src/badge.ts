import { answer, api } from './api';

/**
 * The installed app's icon shows how many inquiries nobody has read yet (the Badging API, where the browser has it):
 * counted by the API, read when the console opens, when it is shown again, and on each screen change.
 */
export async function showUnreadOnIcon(): Promise<void> {
  if (!('setAppBadge' in navigator)) return;
  try {
    const { totalCount } = await answer(api.GET('/v1/inquiries', { params: { query: { isRead: false, limit: 1 } } }));
    await (totalCount > 0 ? navigator.setAppBadge(totalCount) : navigator.clearAppBadge());
  } catch {
    // A badge is a hint: a count that could not be read leaves the last one shown.
  }
}
