// The HMAC key for signed tokens: SESSION_SECRET when given, else generated once and kept in the database,
// so tokens survive restarts and every process on the same database agrees.

import { randomBytes } from 'node:crypto';
import type { SettingsRepository } from '../../data/repositories.js';

export async function resolveSigningSecret(fromEnv: string | undefined, settings: SettingsRepository): Promise<string> {
  if (fromEnv) {
    if (fromEnv.length < 32) throw new TypeError('SESSION_SECRET must be at least 32 characters');
    return fromEnv;
  }
  return settings.getOrCreate('session_secret', () => randomBytes(32).toString('base64url'));
}
