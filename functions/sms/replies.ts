import { ulid } from 'ulid';
import { createHash } from 'node:crypto';
import { findLeadByPhone, lookUpAgain } from '../leads/store';
import { retryOnStaleWrite } from '#shared/store/versioned';
import { findOrganizationBySmsNumber } from '../organization/store';
import { appendInboundSmsMessage, latestThreadOf, openInboundSmsThread, setPhoneOptOut } from './store';
import type { SmsMessage } from '../inquiries/schema';

/** An SMS a lead sent to one of the organizations' numbers, as the provider reports it. */
export interface InboundSms {
  /** E.164: the lead's phone. */
  from: string;
  /** E.164: the organization's number (its smsSenderId). */
  to: string;
  body: string;
  /** The provider's id of the message (inboundMessageId): the same reply delivered twice is recorded once, per organization. */
  providerMessageId: string;
  receivedAt?: string;
}

/**
 * Carrier-standard keywords (CTIA's, and every opt-out keyword AWS End User Messaging requires): a message whose first
 * word is one of these, as End User Messaging reads a message that begins with a keyword.
 */
const OPT_OUT = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REMOVE', 'ARRET', 'TD']);
const OPT_IN = new Set(['START', 'UNSTOP', 'SUBSCRIBE']);

/** A first word: letters, with the marks, apostrophes and hyphens inside one (`Don't`, `Opt-out`, `Arrêt`). */
const FIRST_WORD = /^\p{L}[\p{L}\p{M}'’-]*/u;

/**
 * The message's first word as a keyword: upper-case letters alone, accents dropped, whatever follows it (`Stop, please
 * call me`, `stop!`, `Opt-out`, `Arrêt`). Another word that begins the same is another word (`Stopping by`), and a
 * keyword after the first word is none (`Don't stop`).
 */
const keywordOf = (body: string) => (FIRST_WORD.exec(body.trim().normalize('NFD'))?.[0] ?? '').replace(/[^A-Za-z]/g, '').toUpperCase();

export type InboundOutcome = 'recorded' | 'duplicate' | 'unknown-number' | 'unknown-lead';

/** The message id of a provider's message, the same however often it is delivered. */
function messageIdOf({ providerMessageId }: InboundSms, at: number): string {
  const digest = createHash('sha256').update(providerMessageId).digest();
  let byte = 0;
  return `message_${ulid(at, () => digest[byte++ % digest.length]! / 256)}`;
}

/**
 * Records a reply: the organization is found by the number it was sent to, the lead by the sender's phone.
 * It joins the lead's latest SMS thread as INBOUND (or opens a new SMS inquiry) and counts as unread; the
 * stream emits sms.received. STOP and its synonyms opt the phone (and its lead) out of SMS, START opts them back
 * in, in the transaction that records the reply.
 * A number or sender we do not know is ignored (and reported as such).
 */
export async function receiveSms(sms: InboundSms): Promise<InboundOutcome> {
  const organizationId = await findOrganizationBySmsNumber(sms.to);
  if (!organizationId) return 'unknown-number';
  const receivedAt = sms.receivedAt ?? new Date().toISOString();
  const word = keywordOf(sms.body);
  const effects = { phone: sms.from, smsOptedOut: OPT_OUT.has(word) ? true : OPT_IN.has(word) ? false : undefined };
  const message: SmsMessage = { id: messageIdOf(sms, Date.parse(receivedAt)), direction: 'INBOUND', status: 'RECEIVED', body: sms.body, userId: null, createdAt: receivedAt };
  // The reply is written on condition that the lead found still has the phone; one deleted or given another phone
  // meanwhile makes the lookup run again.
  return retryOnStaleWrite(async () => {
    const lead = await findLeadByPhone(organizationId, sms.from);
    if (!lead) {
      // The phone's opt-out is kept even with no lead to thread the reply to: a lead given that phone later takes it on.
      if (effects.smsOptedOut !== undefined) await setPhoneOptOut(organizationId, sms.from, effects.smsOptedOut, receivedAt);
      return 'unknown-lead';
    }
    const thread = await latestThreadOf(organizationId, lead.id);
    const recorded = await (thread
      ? appendInboundSmsMessage(organizationId, thread, message, sms.providerMessageId, effects)
      : openInboundSmsThread(
          organizationId,
          {
            source: 'SMS',
            leadId: lead.id,
            tag: 'GENERAL',
            // Cut by characters, never inside a surrogate pair (an emoji), as an outbound thread's summary is.
            summary: `Inbound SMS: ${[...sms.body.replace(/\s+/g, ' ').trim()].slice(0, 140).join('')}`,
            isRead: false,
            externalInquiryId: sms.providerMessageId,
            createdAt: receivedAt,
            data: { leadPhone: sms.from, messages: [message] },
          },
          lead,
          sms.providerMessageId,
          effects,
        )
    ).catch(lookUpAgain);
    return recorded ? 'recorded' : 'duplicate';
  });
}
