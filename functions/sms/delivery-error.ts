import { ProviderError } from '#shared/errors';

/**
 * The SMS provider refused or failed: answered with a bare {message} (502). `unconfirmed` when the provider may have
 * taken the message all the same (no answer in time, a lost connection, a fault on its side).
 */
export class SmsDeliveryError extends ProviderError {
  override readonly name = 'SmsDeliveryError';
}
