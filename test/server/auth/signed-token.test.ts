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

  it('refuses any single-character change or insertion anywhere in the token', () => {
    const token = signer.sign('sess', claims);
    const chars = 'ABCabc019-_=.!*+/ \u0000';
    fc.assert(
      fc.property(fc.nat(token.length), fc.constantFrom(...chars), fc.boolean(), (at, ch, insert) => {
        const changed = insert ? token.slice(0, at) + ch + token.slice(at) : token.slice(0, at) + ch + token.slice(at + 1);
        if (changed === token) return;
        expect(signer.verify('sess', changed, now)).toBeUndefined();
      }),
      { seed: 42, numRuns: 2000 },
    );
  });
});
