import { apiHandler } from '../../shared/http/api-handler';
import * as routes from '../../shared/routes/sms';
import { SMS_SENT_MESSAGE } from '../../shared/schemas/sms';
import { sendSms } from '../../shared/domain/sms';

export const handler = apiHandler(routes.sendSms, async ({ body, organizationId }) => {
  await sendSms(organizationId, body);
  return { message: SMS_SENT_MESSAGE };
});
