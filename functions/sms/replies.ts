import { derivedId, newId } from '#shared/ids';
import { E164 } from '#shared/schema';
import { takeId } from '#shared/store/sequences';
import { ACTIVITY_SEQUENCE, findLeadByPhone, lookUpAgain } from '../leads/store';
import { newLead } from '../leads/new-lead';
import { retryOnStaleWrite, StaleWrite } from '#shared/store/versioned';
import { findOrganizationBySmsNumber } from '../organization/store';
import { latestThreadOf } from './store';
import { appendInboundSmsMessage, openInboundSmsLead, openInboundSmsThread, setPhoneOptOut } from './reply-store';
import type { NewInquiry } from '../inquiries/store';
import type { SmsMessage } from '../inquiries/schema';

/** An SMS to one of the organizations' numbers, from a lead or a new customer, as the provider reports it. */
export interface InboundSms {
  /** E.164: the sender's phone. */
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
const messageIdOf = ({ providerMessageId }: InboundSms, at: number): string => derivedId('message', at, providerMessageId);

/** The SMS inquiry a text opens (the lead's first, or a lead's without a thread): unread, holding the text. */
function inboundThread(sms: InboundSms, message: SmsMessage, leadId: string): NewInquiry & { source: 'SMS'; createdAt: string } {
  return {
    source: 'SMS',
    leadId,
    tag: 'GENERAL',
    // Cut by characters, never inside a surrogate pair (an emoji), as an outbound thread's summary is.
    summary: `Inbound SMS: ${[...sms.body.replace(/\s+/g, ' ').trim()].slice(0, 140).join('')}`,
    isRead: false,
    externalInquiryId: sms.providerMessageId,
    createdAt: message.createdAt,
    data: { leadPhone: sms.from, messages: [message] },
  };
}

/**
 * A first text from a phone no lead has is a new customer: a lead with that phone and no name (as a caller who gave
 * none), created at the text's time, with its SMS inquiry holding the text, in one transaction (openInboundSmsLead).
 * A lead that took the phone meanwhile (another first text from it, at the same moment) makes the caller look the
 * phone up again, and the text joins that lead's thread.
 */
async function newLeadFromText(organizationId: string, sms: InboundSms, message: SmsMessage): Promise<InboundOutcome> {
  const at = message.createdAt;
  const lead = newLead({ phone: sms.from, email: null }, newId('lead', new Date(at)), at);
  const activity = { id: await takeId(organizationId, ACTIVITY_SEQUENCE), event: 'LEAD_CREATED', data: 'Lead created from an SMS', referenceId: null, userId: null, leadId: lead.id, createdAt: lead.createdAt, updatedAt: lead.updatedAt };
  const inquiry = { ...inboundThread(sms, message, lead.id), id: newId('inquiry', new Date(at)) };
  const created = await openInboundSmsLead(organizationId, lead, activity, inquiry, sms.providerMessageId);
  if (!created) return 'duplicate';
  if ('held' in created) throw new StaleWrite();
  return 'recorded';
}

/**
 * Records a text to one of the organizations' numbers: the organization is found by the number it was sent to, the
 * lead by the sender's phone. It joins the lead's latest SMS thread as INBOUND (or opens a new SMS inquiry) and counts
 * as unread; the stream emits sms.received. STOP and its synonyms opt the phone (and its lead) out of SMS, START opts
 * them back in, in the transaction that records the reply. A text from a phone no lead has makes a new lead with it
 * (newLeadFromText), unless it is a keyword: then the phone's opt-out alone is kept.
 * A number we do not know is ignored (and reported as such), as is a sender that is no phone number.
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
      // A keyword is no inquiry: the phone's opt-out is kept with no lead, and a lead given that phone later takes it on.
      if (effects.smsOptedOut !== undefined) {
        await setPhoneOptOut(organizationId, sms.from, effects.smsOptedOut, receivedAt);
        return 'unknown-lead';
      }
      // Providers name the sender in E.164, as a lead holds its phone; anything else could make no lead.
      if (!E164.test(sms.from)) return 'unknown-lead';
      return newLeadFromText(organizationId, sms, message);
    }
    const thread = await latestThreadOf(organizationId, lead.id);
    const recorded = await (thread
      ? appendInboundSmsMessage(organizationId, thread, message, sms.providerMessageId, effects)
      : openInboundSmsThread(organizationId, inboundThread(sms, message, lead.id), lead, sms.providerMessageId, effects)
    ).catch(lookUpAgain);
    return recorded ? 'recorded' : 'duplicate';
  });
}
