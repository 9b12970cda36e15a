// The signed-token verifier accepts only the one canonical encoding it writes: every tampering is refused.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenSigner } from '../../../server/auth/signed-token.js';
import { tamperings } from '../../helpers/token-tampering.js';

const signer = new TokenSigner('x'.repeat(40));
const now = Date.now();
const claims = { iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 300, kid: 'k', sid: 's', org: 'o' };

describe('TokenSigner.verify', () => {
  for (const prefix of ['sess', 'usr'] as const) {
    const token = signer.sign(prefix, claims);

    it(`accepts a ${prefix}_ token exactly as signed`, () => {
      expect(signer.verify(prefix, token, now)).toMatchObject({ kid: 'k' });
    });

    for (const [name, tampered] of Object.entries(tamperings(token))) {
      it(`refuses a ${prefix}_ token with ${name}`, () => {
        expect(tampered).not.toBe(token);
        expect(signer.verify(prefix, tampered, now)).toBeUndefined();
      });
    }
  }

  for (const prefix of ['sess', 'usr'] as const) {
    it(`refuses a ${prefix}_ token with any single character changed, inserted or appended`, () => {
      const token = signer.sign(prefix, claims);
      // Characters a lenient decoder skips or maps (padding, separators, the standard alphabet, whitespace),
      // the token's own alphabet, and any other UTF-16 code unit.
      const char = fc.oneof(
        fc.constantFrom(...'ABCabc019-_=.!*+/ \t\n\u0000'),
        fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      );
      fc.assert(
        fc.property(fc.nat(token.length), char, fc.constantFrom('change', 'insert', 'append'), (at, ch, how) => {
          const changed =
            how === 'append'
              ? token + ch
              : how === 'insert'
                ? token.slice(0, at) + ch + token.slice(at)
                : token.slice(0, at) + ch + token.slice(at + 1);
          fc.pre(changed !== token);
          expect(signer.verify(prefix, changed, now)).toBeUndefined();
        }),
        { numRuns: 3000 },
      );
    });
  }
});

describe('TokenSigner.check, a token seen before', () => {
  it('answers the same frozen claims again without letting a caller change them, and expired once its time has passed', () => {
    const token = signer.sign('sess', { ...claims, kid: 'again' });
    const first = signer.check<typeof claims>('sess', token, now);
    const second = signer.check<typeof claims>('sess', token, now);
    expect(first).toMatchObject({ ok: true, claims: { kid: 'again' } });
    expect(second.ok && first.ok && second.claims).toBe(first.ok && first.claims);
    expect(Object.isFrozen(first.ok && first.claims)).toBe(true);
    expect(signer.check('sess', token, claims.exp * 1000)).toEqual({ ok: false, reason: 'expired' });
    expect(signer.check('sess', token, now)).toMatchObject({ ok: true });
  });

  it('is still refused under another prefix, and by a signer with another secret', () => {
    const token = signer.sign('sess', claims);
    expect(signer.check('sess', token, now).ok).toBe(true);
    expect(signer.check('usr', token, now)).toEqual({ ok: false, reason: 'malformed' });
    expect(new TokenSigner('y'.repeat(40)).check('sess', token, now)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('tells an expired genuine token apart from a forged one the first time it is seen too', () => {
    const expired = signer.sign('usr', { ...claims, exp: Math.floor(now / 1000) - 1 });
    expect(signer.check('usr', expired, now)).toEqual({ ok: false, reason: 'expired' });
    expect(signer.check('usr', `${expired.slice(0, -2)}AA`, now)).toEqual({ ok: false, reason: 'malformed' });
  });
});
