// Quota and sign-in windows are clock minutes (server/auth/quota.ts, window-counter.ts): a test that counts up to a
// limit starts well inside one, so that no refill at the minute's turn cuts its sequence in two.

/** Resolves at once when `needMs` or more are left in this clock minute; otherwise once the next minute has begun. */
export async function insideOneMinute(needMs = 8_000): Promise<void> {
  const toNextMinute = 60_000 - (Date.now() % 60_000);
  // Waiting for the clock event itself (the next minute), not for some other condition to become true.
  if (toNextMinute < needMs) await new Promise((resolve) => setTimeout(resolve, toNextMinute + 100));
}
