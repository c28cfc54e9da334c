import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { inquiryKeys } from '../../functions/inquiries/entity';
import { createMember } from '../../functions/organization/member-rules';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { localSmsProvider } from '../../functions/sms/local-provider';
import type { SmsSender } from '../../functions/sms/sender';
import type { Client, TestApi } from './api';

/** An organization that sends SMS: its client, its one member's user and a lead with a phone. */
export interface Sender {
  client: Client;
  organizationId: string;
  userId: string;
  leadId: string;
}

/** A file's `organizationWithSender`: a new organization of its test API with one member (and so one user) and one lead with a phone. */
export const senderOrganizations =
  (api: TestApi) =>
  async (phone = '+61412345001'): Promise<Sender> => {
    const { client, organizationId } = await api.organization();
    const member = await createMember(organizationId, { role: 'MEMBER', firstName: 'Priya', lastName: 'Sharma', email: 'priya@example.com.au' });
    const lead = await client.post('/v1/leads', { name: 'Olivia Nguyen', email: 'olivia@example.com.au', phone });
    return { client, organizationId, userId: member.user.id, leadId: lead.body.lead.id };
  };

/** The stored message item, with what the API does not show (providerMessageId, failureReason). */
export async function messageItem(organizationId: string, inquiryId: string, messageId: string) {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: inquiryKeys.inquiryMessage(organizationId, inquiryId, messageId), ConsistentRead: true }));
  return Item!;
}

/** The local provider, but the answer to its first send is lost: it takes (and records) the message, then `lost` is thrown. */
export function losingFirstAnswer(lost: Error): SmsSender {
  let answered = false;
  return {
    name: 'losing its first answer',
    async send(sms) {
      const answer = await localSmsProvider.send(sms);
      if (answered) return answer;
      answered = true;
      throw lost;
    },
  };
}
