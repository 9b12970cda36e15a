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
