// What an aggregate contract case runs against: fresh, migrated, empty repositories of one engine, and how that
// engine words a refused constraint (the SQLite and PostgreSQL messages differ; the refusal is the same).

import type { Repositories } from '../../../data/repositories.js';

export interface AggregateSubject {
  repositories: Repositories;
  /** What a statement refused by a CHECK, FOREIGN KEY or UNIQUE constraint says, on this engine. */
  refused: { check: RegExp; foreignKey: RegExp; unique: RegExp };
  /** Every row a plain SQL query (no parameters) answers: to see what the engine holds, e.g. only a hash. */
  rows(sql: string): Promise<Record<string, unknown>[]>;
  /** `bytes` as a binary literal this engine's SQL reads (the two spell it differently). */
  blob(bytes: Uint8Array): string;
  close(): Promise<void> | void;
}

export type OpenSubject = () => Promise<AggregateSubject> | AggregateSubject;

/** Runs `body` on a fresh subject and closes it after. */
export function onFresh(open: OpenSubject, body: (subject: AggregateSubject) => Promise<void>): () => Promise<void> {
  return async () => {
    const subject = await open();
    try {
      await body(subject);
    } finally {
      await subject.close();
    }
  };
}

/** Cases that each start from a fresh subject holding what `setup` makes there. */
export function withFresh<W>(open: OpenSubject, setup: (subject: AggregateSubject) => Promise<W>) {
  return (body: (world: W) => Promise<void>) => onFresh(open, async (subject) => body(await setup(subject)));
}
