import { logger } from '#shared/observability';
import { settleUnansweredSms } from './unanswered';

/** Every minute (deployed: an EventBridge schedule; `npm start`: in process): SMS stuck QUEUED become FAILED, unconfirmed. */
export async function handler(): Promise<void> {
  const settled = await settleUnansweredSms();
  if (settled) logger.warn('SMS never answered by the provider marked FAILED (unconfirmed)', { settled });
}
