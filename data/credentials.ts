// Credential formats: publishable/secret keys and share tokens, SHA-256 hashing of secrets, scrypt passwords.
import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Largest multiple of 62 that fits in a byte: bytes at or above it are rejected so every character is equally likely. */
const BASE62_LIMIT = 62 * 4; // 248

/** Publishable key: `pk_` + 24 base62 characters (about 143 random bits). */
export const PUBLISHABLE_KEY_PATTERN = /^pk_[0-9A-Za-z]{24}$/;
/** Secret key: `sk_` + 32 base62 characters (about 190 random bits). */
export const SECRET_KEY_PATTERN = /^sk_[0-9A-Za-z]{32}$/;
/** Share token: `share_` + 32 lowercase hex characters (128 random bits). */
export const SHARE_TOKEN_PATTERN = /^share_[0-9a-f]{32}$/;

/** `length` characters drawn uniformly from [0-9A-Za-z] with a cryptographic generator (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const bytes = randomBytes(Math.ceil((length - out.length) * 1.1) + 4);
    for (const b of bytes) {
      if (b >= BASE62_LIMIT) continue;
      out += BASE62[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function generatePublishableKey(): string {
  return `pk_${randomBase62(24)}`;
}

export function generateSecretKey(): string {
  return `sk_${randomBase62(32)}`;
}

export function generateShareToken(): string {
  return `share_${randomBytes(16).toString('hex')}`;
}

/** A readable random password for seeded accounts (20 base62 characters). */
export function generatePassword(): string {
  return randomBase62(20);
}

/** SHA-256 of a secret (secret key, share token, OAuth code), lowercase hex. This is what the database stores. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time string comparison (different lengths compare unequal without leaking where they differ). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  if (ab.length !== bb.length) {
    timingSafeEqual(ab, ab);
    return false;
  }
  return timingSafeEqual(ab, bb);
}

// scrypt parameters: N=2^14, r=8, p=1 uses 16 MiB and ~40-60 ms per hash on the reference machine.
const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 64, saltLength: 16 } as const;
const SCRYPT_MAXMEM = 64 * 1024 * 1024;

/** Stored form: `scrypt$N$r$p$<salt base64>$<hash base64>`; the parameters travel with the hash so they can be raised later. */
function formatHash(N: number, r: number, p: number, salt: Buffer, hash: Buffer): string {
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function parseHash(stored: string): ParsedHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const parsed = { N: Number(n), r: Number(r), p: Number(p), salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
  if (![parsed.N, parsed.r, parsed.p].every((x) => Number.isInteger(x) && x > 0) || parsed.hash.length === 0) {
    return undefined;
  }
  return parsed;
}

/** Hashes a password with a fresh per-user salt (synchronous: for the admin command and seeding, never a request path). */
export function hashPasswordSync(password: string): string {
  const salt = randomBytes(SCRYPT.saltLength);
  const hash = scryptSync(password, salt, SCRYPT.keyLength, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: SCRYPT_MAXMEM });
  return formatHash(SCRYPT.N, SCRYPT.r, SCRYPT.p, salt, hash);
}

/** Hashes a password on libuv's thread pool (for request handlers). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SCRYPT.saltLength);
  const hash = await scryptAsync(password, salt, SCRYPT.keyLength, SCRYPT.N, SCRYPT.r, SCRYPT.p);
  return formatHash(SCRYPT.N, SCRYPT.r, SCRYPT.p, salt, hash);
}

function scryptAsync(password: string, salt: Buffer, keyLength: number, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, { N, r, p, maxmem: SCRYPT_MAXMEM }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** A well-formed hash of a random password: verified against when the user does not exist, so both paths cost the same. */
let dummyHash: string | undefined;
export function dummyPasswordHash(): string {
  dummyHash ??= hashPasswordSync(randomBase62(16));
  return dummyHash;
}

/** Verifies a password against a stored hash in constant time (timingSafeEqual). A malformed stored hash never matches. */
export function verifyPasswordSync(password: string, stored: string): boolean {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const candidate = scryptSync(password, parsed.salt, parsed.hash.length, {
    N: parsed.N,
    r: parsed.r,
    p: parsed.p,
    maxmem: SCRYPT_MAXMEM,
  });
  return timingSafeEqual(candidate, parsed.hash);
}

/** Asynchronous twin of verifyPasswordSync, for request handlers. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const candidate = await scryptAsync(password, parsed.salt, parsed.hash.length, parsed.N, parsed.r, parsed.p);
  return timingSafeEqual(candidate, parsed.hash);
}
