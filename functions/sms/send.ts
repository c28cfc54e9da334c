import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';
import { SMS_SENT_MESSAGE } from './schema';
import { sendSms } from './rules';

export const handler = apiHandler(routes.sendSms, async ({ body, organizationId }) => {
  await sendSms(organizationId, body);
  return { message: SMS_SENT_MESSAGE };
});
