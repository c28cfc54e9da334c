import { NotFoundError } from '#shared/errors';
import { apiHandler } from '#shared/http/api-handler';
import { pageEnvelope } from '#shared/pagination';
import * as routes from './routes';
import { sendSms } from './rules';
import { SMS_SENT_MESSAGE } from './schema';
import { getSms, listSmsPage } from './store';
import { listConversationsPage } from './conversations';

/** The handlers of the sms routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const sendSmsHandler = apiHandler(routes.sendSms, async ({ body, organizationId }) => {
  const { sms } = await sendSms(organizationId, body);
  return { message: SMS_SENT_MESSAGE, sms };
});

export const listSmsHandler = apiHandler(routes.listSms, async ({ query, organizationId }) => pageEnvelope('messages', await listSmsPage(organizationId, query)));

export const getSmsHandler = apiHandler(routes.getSms, async ({ path, organizationId }) => {
  const sms = await getSms(organizationId, path.smsId);
  if (!sms) throw new NotFoundError('SMS not found');
  return { sms };
});

export const listConversationsHandler = apiHandler(routes.listConversations, async ({ query, organizationId }) => pageEnvelope('conversations', await listConversationsPage(organizationId, query)));
