import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';
import { sendSms } from './rules';
import { SMS_SENT_MESSAGE } from './schema';

/** The handlers of the sms routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const sendSmsHandler = apiHandler(routes.sendSms, async ({ body, organizationId }) => {
  await sendSms(organizationId, body);
  return { message: SMS_SENT_MESSAGE };
});
