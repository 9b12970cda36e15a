// Tampered forms of a signed token (sess_, usr_): what a hostile client tries against a lenient decoder.

/** Tampered forms of a valid token, named by what was done to it. */
export function tamperings(token: string): Record<string, string> {
  const [head, sig] = token.split('.') as [string, string];
  const last = sig.at(-1) as string;
  // The last character carries 4 significant bits; flipping its lowest bit keeps the decoded bytes the same.
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const lowBits = alphabet[alphabet.indexOf(last) ^ 1] as string;
  const standard = Buffer.from(sig, 'base64url').toString('base64');
  return {
    'padding appended': `${token}=`,
    'bang appended': `${token}!`,
    'star inserted near the end': `${token.slice(0, -2)}*${token.slice(-2)}`,
    'dot inserted near the end': `${token.slice(0, -2)}.${token.slice(-2)}`,
    'unused low bits of the last character changed': `${token.slice(0, -1)}${lowBits}`,
    'signature re-encoded as standard base64': `${head}.${standard}`,
    'payload padded': `${head}=.${sig}`,
    'truncated by one character': token.slice(0, -1),
    'space appended': `${token} `,
  };
}
