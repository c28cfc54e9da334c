import { apiHandler } from '#shared/http/api-handler';
import { Answer } from '#shared/http/answer';
import { requiredMemberSession } from '#shared/http/member-session';
import type { StoredSubscription } from './entity';
import * as routes from './routes';
import { applicationServerKey, listSubscriptions, subscribe, unsubscribe } from './store';

const viewOf = ({ id, endpoint, notify, createdAt, updatedAt }: StoredSubscription) => ({ id, endpoint, notify, createdAt, updatedAt });

export const pushSubscriptionOptionsHandler = apiHandler(routes.pushSubscriptionOptions, async ({ organizationId }) => ({ applicationServerKey: await applicationServerKey(organizationId) }));

export const createPushSubscriptionHandler = apiHandler(routes.createPushSubscription, async ({ organizationId, body, request }) => {
  const { memberId, role } = requiredMemberSession(request.authorizer);
  const { subscription, created } = await subscribe(organizationId, { id: memberId, role }, body);
  return created ? { subscription: viewOf(subscription) } : new Answer(200, { subscription: viewOf(subscription) });
});

export const listPushSubscriptionsHandler = apiHandler(routes.listPushSubscriptions, async ({ organizationId, request }) => ({
  subscriptions: (await listSubscriptions(organizationId, requiredMemberSession(request.authorizer).memberId)).map(viewOf),
}));

export const deletePushSubscriptionHandler = apiHandler(routes.deletePushSubscription, async ({ organizationId, path, request }) => {
  await unsubscribe(organizationId, requiredMemberSession(request.authorizer).memberId, path.subscriptionId);
  return { success: true as const, id: path.subscriptionId };
});
