// First start on an empty database: seed the demo organization and print what a newcomer needs once.

import type { Database } from '../data/db.js';
import { seedDemoIfEmpty } from '../data/seed.js';

/**
 * Seeds the demo organization when the database has none and writes a short banner with the owner's
 * login and both keys. The banner is not a log line: it is printed once, on purpose, because the
 * plaintexts exist only now (the secret key is stored hashed).
 */
export function seedOnFirstStart(db: Database, origin: string, print: (text: string) => void): void {
  const seeded = seedDemoIfEmpty(db);
  if (!seeded) return;
  print(
    [
      '',
      'Cairn demo organization created (shown once, keep it):',
      `  organization     ${seeded.organization.name} (${seeded.organization.id})`,
      `  owner login      ${seeded.owner.email} / ${seeded.owner.password}`,
      `  publishable key  ${seeded.publishableKey.key} (scopes: ${seeded.publishableKey.scopes.join(', ')})`,
      `  secret key       ${seeded.secretKey.key}`,
      `  demo collection  ${seeded.collection.name} (${seeded.collection.id})`,
      `  listening on     ${origin}`,
      '',
    ].join('\n') + '\n',
  );
}
