// One limit on failed sign-ins for every way a member signs in (POST /v1/login, the OAuth sign-in page): per client
// address and per account, in one-minute windows, so a password can be guessed neither from one address nor by
// spreading the guesses of one account over many.

import type { Logger } from '../logger.js';
import type { WindowCounter } from './window-counter.js';

/** Which limit refused a sign-in: the client's address, or the account named by the email. */
export type SignInLimit = 'address' | 'account';

export interface SignInThrottle {
  /** The spent limit when this sign-in may not be tried now (even with the right password), else undefined. */
  refusal(address: string, email: string): Promise<SignInLimit | undefined>;
  /** Charges a failed sign-in to the address and to the account. */
  failed(address: string, email: string): Promise<void>;
}

export interface SignInThrottleOptions {
  byAddress: WindowCounter;
  byAccount: WindowCounter;
  /** Failed sign-ins allowed per address and per account in one minute. */
  limit: number;
  logger: Logger;
}

/** Counted without case or surrounding spaces: re-casing an email must not open a fresh allowance. */
const accountKey = (email: string) => email.trim().toLowerCase();

/**
 * The counters fail open, like the session counters (DESIGN §5): a counter store that is down must not lock every
 * member out; the failure is logged.
 */
export function signInThrottle(options: SignInThrottleOptions): SignInThrottle {
  const { byAddress, byAccount, limit, logger } = options;
  const unavailable = (error: unknown) => {
    logger.error('sign-in failure counter unavailable; failing open', { error: String(error) });
    return 0;
  };
  return {
    async refusal(address, email) {
      const [fromAddress, forAccount] = await Promise.all([
        byAddress.peek(address).catch(unavailable),
        email ? byAccount.peek(accountKey(email)).catch(unavailable) : 0,
      ]);
      if (fromAddress >= limit) return 'address';
      if (forAccount >= limit) return 'account';
      return undefined;
    },
    async failed(address, email) {
      await Promise.all([
        byAddress.increment(address).catch(unavailable),
        email ? byAccount.increment(accountKey(email)).catch(unavailable) : 0,
      ]);
    },
  };
}
