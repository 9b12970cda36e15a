import { describe, expect, it } from 'vitest';
import {
  generatePassword,
  generatePublishableKey,
  generateSecretKey,
  generateShareToken,
  hashPassword,
  hashPasswordSync,
  hashSecret,
  PUBLISHABLE_KEY_PATTERN,
  randomBase62,
  safeEqual,
  SECRET_KEY_PATTERN,
  SHARE_TOKEN_PATTERN,
  verifyPassword,
  verifyPasswordSync,
} from '../../data/credentials.js';

describe('credential formats', () => {
  it('a publishable key is pk_ followed by 24 base62 characters', () => {
    for (let i = 0; i < 50; i++) expect(generatePublishableKey()).toMatch(PUBLISHABLE_KEY_PATTERN);
  });

  it('a secret key is sk_ followed by 32 base62 characters', () => {
    for (let i = 0; i < 50; i++) expect(generateSecretKey()).toMatch(SECRET_KEY_PATTERN);
  });

  it('a share token is share_ followed by 32 lowercase hex characters', () => {
    expect(generateShareToken()).toMatch(SHARE_TOKEN_PATTERN);
  });

  it('generated keys do not repeat', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateSecretKey()));
    expect(keys.size).toBe(1000);
  });

  it('base62 characters are drawn without modulo bias', () => {
    const counts = new Map<string, number>();
    const sample = randomBase62(62 * 2000);
    for (const c of sample) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Expected 2000 each; a biased modulo draw would put the first 8 characters ~25% above the rest.
    for (const n of counts.values()) {
      expect(n).toBeGreaterThan(1700);
      expect(n).toBeLessThan(2300);
    }
  });

  it('hashSecret is the lowercase SHA-256 hex of the secret', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('safeEqual compares strings of any length', () => {
    expect(safeEqual('sess_a', 'sess_a')).toBe(true);
    expect(safeEqual('sess_a', 'sess_b')).toBe(false);
    expect(safeEqual('sess_a', 'sess_ab')).toBe(false);
  });
});

describe('password hashing', () => {
  it('hashes with scrypt and a per-user salt, so equal passwords give different hashes', () => {
    const a = hashPasswordSync('correct horse');
    const b = hashPasswordSync('correct horse');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(verifyPasswordSync('correct horse', a)).toBe(true);
    expect(verifyPasswordSync('correct horse', b)).toBe(true);
    expect(verifyPasswordSync('wrong horse', a)).toBe(false);
  });

  it('the asynchronous and synchronous forms accept each other’s hashes', async () => {
    const asyncHash = await hashPassword('battery staple');
    expect(verifyPasswordSync('battery staple', asyncHash)).toBe(true);
    expect(await verifyPassword('battery staple', hashPasswordSync('battery staple'))).toBe(true);
    expect(await verifyPassword('nope', asyncHash)).toBe(false);
  });

  it('a malformed stored hash never verifies', () => {
    expect(verifyPasswordSync('x', 'plain')).toBe(false);
    expect(verifyPasswordSync('x', 'scrypt$a$b$c$d$e')).toBe(false);
  });

  it('generated passwords are 20 base62 characters', () => {
    expect(generatePassword()).toMatch(/^[0-9A-Za-z]{20}$/);
  });
});
