// Seals secrets the server stores but never shows again (the organization's model API key): AES-256-GCM with a key
// derived (HKDF-SHA-256) from the server's signing secret, a random 12-byte nonce per value. The sealed text is
// `v1.<nonce|tag|ciphertext in base64url>`; a value sealed under another secret does not open (null).

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export class SecretBox {
  readonly #key: Buffer;

  constructor(serverSecret: string, purpose: string) {
    this.#key = Buffer.from(hkdfSync('sha256', serverSecret, 'cairn secret box', purpose, 32));
  }

  seal(plaintext: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** The plaintext, or null when `sealed` is not a value this box sealed. */
  open(sealed: string): string | null {
    if (!sealed.startsWith('v1.')) return null;
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    if (bytes.length < 28) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
