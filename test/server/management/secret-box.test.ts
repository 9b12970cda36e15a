// The box that seals the model API key: what it seals opens again, under the same secret only, and a changed
// byte or a foreign value opens to nothing.

import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../../server/management/secret-box.js';

const SECRET = 'a server secret of at least thirty-two characters';

describe('SecretBox', () => {
  it('opens what it sealed, each seal different (a fresh nonce)', () => {
    const box = new SecretBox(SECRET, 'ai');
    const a = box.seal('sk-model-key');
    const b = box.seal('sk-model-key');
    expect(a).not.toBe(b);
    expect(a).not.toContain('sk-model-key');
    expect(box.open(a)).toBe('sk-model-key');
    expect(box.open(b)).toBe('sk-model-key');
  });

  it('opens nothing under another secret or purpose, when tampered with, or when not sealed by it', () => {
    const sealed = new SecretBox(SECRET, 'ai').seal('sk-model-key');
    expect(new SecretBox(`${SECRET}!`, 'ai').open(sealed)).toBeNull();
    expect(new SecretBox(SECRET, 'other').open(sealed)).toBeNull();
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    bytes[bytes.length - 1]! ^= 1;
    expect(new SecretBox(SECRET, 'ai').open(`v1.${bytes.toString('base64url')}`)).toBeNull();
    expect(new SecretBox(SECRET, 'ai').open('sk-model-key')).toBeNull();
    expect(new SecretBox(SECRET, 'ai').open('v1.AAAA')).toBeNull();
  });
});
