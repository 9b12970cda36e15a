// Every example in docs/*.md and the README runs against a real server on the demo region and answers what the doc shows.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admin,
  type Bootstrapped,
  fromBootstrapOutput,
  login,
  mintSessionToken,
  REPO_ROOT,
  type RunningServer,
  startServer,
} from '../helpers/server.js';
import { type DocBlock, isRunnableKind, readBlocks } from './doc-blocks.js';
import {
  type Answer,
  blockUrls,
  type DemoValues,
  runCall,
  runGraphql,
  runShell,
  runTypeScript,
  statusOf,
  stepAnswer,
  substituteHosts,
} from './example-runner.js';
import { sampleMismatches } from './sample-match.js';

const FILES = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const BLOCKS = FILES.flatMap((file) => readBlocks(file, readFileSync(join(REPO_ROOT, file), 'utf8')));
const where = (b: DocBlock) => `${b.file}:${b.line}`;

/** A runnable block with the blocks that complete it: its GraphQL variables and the answer the doc shows. */
interface Example {
  block: DocBlock;
  variables?: DocBlock;
  answer?: DocBlock;
}

function examples(blocks: DocBlock[]): Example[] {
  const found: Example[] = [];
  for (const block of blocks) {
    const kind = block.marker?.kind;
    const last = found[found.length - 1];
    if (kind === 'variables' || (kind === 'answer' && !block.marker?.options.call)) {
      const role = kind === 'variables' ? 'variables' : 'answer';
      if (!last || last.block.file !== block.file || last[role]) throw new Error(`${where(block)}: ${kind} of no example before it`);
      last[role] = block;
    } else if (kind && kind !== 'not run') found.push({ block });
  }
  return found;
}

/** The status the doc states for an example (its marker's or its answer's `status:`), if it states one. */
function statedStatus(example: Example): number | undefined {
  const status = example.answer?.marker?.options.status ?? example.block.marker?.options.status;
  return status === undefined ? undefined : Number(status);
}

function expectAnswer(actual: Answer, example: Example, v: DemoValues, defaultStatus?: number): void {
  const status = statedStatus(example) ?? defaultStatus;
  const context = `${where(example.block)} answered ${actual.status} ${JSON.stringify(actual.body).slice(0, 400)}`;
  // A command that made no HTTP call (the route command) is judged by its output alone.
  if (actual.status !== undefined) {
    if (status === undefined) expect(actual.status, context).toBeLessThan(300);
    else expect(actual.status, context).toBe(status);
  }
  const sample = example.answer ?? (example.block.marker?.kind === 'answer' ? example.block : undefined);
  if (sample) {
    const shown = JSON.parse(substituteHosts(sample.text, v));
    expect(sampleMismatches(actual.body, shown), `${where(sample)} against the answer`).toEqual([]);
  }
}

describe('doc examples', () => {
  let server: RunningServer;
  let demo: Omit<DemoValues, 'sessionToken'>;
  let tryLine: string;
  let embedUrl: string;
  const scratch: string[] = [];

  beforeAll(async () => {
    // A fresh database: the server seeds the demo organization and prints its banner, as `npm start` does.
    server = await startServer({}, { alone: true });
    await server.waitForOutput('  listening on', 60_000);
    const banner = server.stdout();
    const field = (name: string, pattern: string) => {
      const m = new RegExp(`^  ${name}\\s+${pattern}$`, 'm').exec(banner);
      if (!m) throw new Error(`the banner has no ${name}:\n${banner}`);
      return m.slice(1);
    };
    const [organizationId = ''] = field('organization', '.* \\((\\S+)\\)');
    const [email = '', ownerPassword = ''] = field('owner login', '(\\S+) / (\\S+)');
    const [publishableKey = ''] = field('publishable key', '(pk_\\w+) .*');
    const [secretKey = ''] = field('secret key', '(sk_\\w+)');
    const [collectionId = ''] = field('demo collection', '.* \\((\\S+)\\), .*');
    [embedUrl = ''] = field('embed', '(\\S+)');
    [tryLine = ''] = field('try', '(curl .*)');
    const userToken = await login(server, email, ownerPassword);
    const me = await (await fetch(`${server.url}/studio/me`, { headers: { Authorization: `Bearer ${userToken}` } })).json();
    const listing = await fetch(`${server.url}/v1/collections/${collectionId}/itineraries`, { headers: { 'X-API-Key': publishableKey } });
    const itineraries = ((await listing.json()) as { data: { id: string; name: string }[] }).data;
    const itinerary = itineraries.find((i) => i.name === 'Pic de Cairn from the village');
    if (!itinerary) throw new Error(`the demo itinerary is missing: ${JSON.stringify(itineraries)}`);
    demo = {
      url: server.url,
      databasePath: join(server.dataDir, 'platform.db'),
      organizationId,
      ownerId: (me as { data: { user: { id: string } } }).data.user.id,
      ownerPassword,
      publishableKey,
      secretKey,
      keyId: '',
      collectionId,
      itineraryId: itinerary.id,
      userToken,
    };
  });
  afterAll(async () => {
    await server?.stop();
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  });

  /** The demo values with a fresh session token (they live 5 minutes; the suite may run longer). */
  async function values(): Promise<DemoValues> {
    const org = { secretKey: { key: demo.secretKey }, publishableKey: { key: demo.publishableKey } } as Bootstrapped;
    return { ...demo, sessionToken: await mintSessionToken(server, org) };
  }

  it('every block of a runnable kind says whether and how it runs', () => {
    const unmarked = BLOCKS.filter((b) => !b.marker && isRunnableKind(b)).map(where);
    expect(unmarked, 'mark each block with <!-- example: … --> before its fence (test/docs/doc-blocks.ts)').toEqual([]);
  });

  it('lists the blocks that are not run, and why', () => {
    const notRun = BLOCKS.filter((b) => b.marker?.kind === 'not run').map((b) => `${where(b)}: ${b.marker?.options.why}`);
    const unmarked = BLOCKS.filter((b) => !b.marker).map((b) => `${where(b)}: no marker (${b.lang || 'plain'} block)`);
    console.info(
      `doc blocks not run (${notRun.length + unmarked.length} of ${BLOCKS.length}):\n  ${[...notRun, ...unmarked].join('\n  ')}`,
    );
    expect(examples(BLOCKS).length + notRun.length).toBeGreaterThan(20);
  });

  it("README: the first start's banner prints a request that answers the demo collection's three itineraries", async () => {
    const { steps, exitCode, stderr } = await runShell(tryLine, await values());
    expect(exitCode, stderr).toBe(0);
    const answer = stepAnswer(steps[0] as (typeof steps)[0]);
    expect(answer.status).toBe(200);
    expect((answer.body as { data: unknown[] }).data).toHaveLength(3);
    expect(await statusOf(embedUrl, await values())).toBe(200);
  });

  for (const example of examples(BLOCKS)) {
    const { block } = example;
    it(`${where(block)} (${block.marker?.kind})`, { timeout: 180_000 }, async () => {
      const v = await values();
      const options = block.marker?.options ?? {};
      switch (block.marker?.kind) {
        case 'sh':
          return runShellExample(example, options.database === 'fresh' ? freshDatabase(v) : v);
        case 'graphql': {
          const answer = await runGraphql(block.text, example.variables?.text, v);
          if (!example.answer) expect((answer.body as { errors?: unknown }).errors, where(block)).toBeUndefined();
          return expectAnswer(answer, example, v, 200);
        }
        case 'request':
          return expectAnswer(await runCall(options.call ?? '', block.text, options.as, v), example, v);
        case 'answer':
          return expectAnswer(await runCall(options.call ?? '', undefined, options.as, v), example, v);
        case 'urls': {
          const urls = blockUrls(block.text, v);
          expect(urls.length, `${where(block)} names no URL`).toBeGreaterThan(0);
          for (const url of urls) expect(await statusOf(url, v), url).toBe(200);
          return;
        }
        case 'ts': {
          const run = await runTypeScript(block.text, options.append ?? '', v);
          expect(run.exitCode, run.stderr).toBe(0);
          if (options.prints !== undefined) expect(run.stdout).toBe(options.prints);
          return;
        }
      }
    });
  }

  /** A new database holding one bare organization: ORG_ID and KEY_ID (its publishable key) name them. */
  function freshDatabase(v: DemoValues): DemoValues {
    const dataDir = mkdtempSync(join(tmpdir(), 'cairn-doc-db-'));
    scratch.push(dataDir);
    const org = fromBootstrapOutput(admin({ dataDir } as RunningServer, 'bootstrap', '--empty'));
    return { ...v, databasePath: join(dataDir, 'platform.db'), organizationId: org.organization.id, keyId: org.publishableKey.id };
  }

  async function runShellExample(example: Example, v: DemoValues): Promise<void> {
    const { steps, exitCode, stderr } = await runShell(example.block.text, v);
    expect(exitCode, `${where(example.block)} failed: ${stderr}`).toBe(0);
    for (const step of steps) {
      const answer = stepAnswer(step);
      const context = `${where(example.block)} "${step.command.trim()}" answered ${answer.status} ${step.stdout.slice(0, 400)}`;
      if (step.expected) {
        expect(answer.status, context).toBe(step.expected.status);
        if (step.expected.body !== undefined) expect(sampleMismatches(answer.body, step.expected.body), context).toEqual([]);
      } else for (const status of step.statuses) expect(status, context).toBeLessThan(300);
    }
    const last = steps[steps.length - 1];
    if (example.answer && last) expectAnswer(stepAnswer(last), example, v);
  }
});
