// Reads the fenced code blocks of the developer docs and the `<!-- example: … -->` marker written before each.

/**
 * A marker is an HTML comment on the line before a fence (blank lines between are allowed):
 *
 *   <!-- example: KIND; key: value; key: value -->
 *
 * KIND says what the test does with the block:
 * - `sh`: a shell script (curl, npm run -s admin, jq), run with bash against the test server; `# 201 {…}` comment
 *   lines after a command are that command's expected status and answer. `database: fresh` runs it on a new database.
 * - `graphql`: a document sent to POST /graphql with the demo publishable key and a session token.
 * - `variables`: the variables of the graphql example before it.
 * - `answer`: the answer the example before it gives (`status: N`, default 200 or what the example states); with
 *   `call: METHOD PATH [JSON body]` the answer of that call instead.
 * - `request`: a JSON body sent as `call: METHOD PATH` (`as: member` signs in; `status: N` is what it answers).
 * - `urls`: every absolute URL with a path in the block answers 200 to a GET.
 * - `ts`: a TypeScript module run with tsx; `append:` code added at its end, `prints:` what it prints then.
 * - `not run`: `why:` says why the block cannot be executed.
 */
export interface Marker {
  kind: 'sh' | 'graphql' | 'variables' | 'answer' | 'request' | 'urls' | 'ts' | 'not run';
  options: Record<string, string>;
}

export interface DocBlock {
  /** The file, relative to the repository (`docs/data-api.md`). */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The fence's info string (`sh`, `graphql`, `json`, or empty). */
  lang: string;
  text: string;
  marker?: Marker;
}

const KINDS: readonly Marker['kind'][] = ['sh', 'graphql', 'variables', 'answer', 'request', 'urls', 'ts', 'not run'];
const OPTIONS = ['why', 'append', 'prints', 'call', 'as', 'status', 'database'];
const MARKER = /^<!--\s*example:\s*(.*?)\s*-->$/;
/** Clauses are split at a `;` followed by a known option name, so code in `append:` may hold semicolons. */
const CLAUSE = new RegExp(`;\\s*(?=(?:${OPTIONS.join('|')}):)`);

/** Parses the inside of a marker; a malformed one throws naming the file and line, so a typo cannot skip a block. */
export function parseMarker(body: string, where: string): Marker {
  const [head = '', ...clauses] = body.split(CLAUSE);
  const kind = head.trim() as Marker['kind'];
  if (!KINDS.includes(kind)) throw new Error(`${where}: unknown example kind "${head}" (one of ${KINDS.join(', ')})`);
  const options: Record<string, string> = {};
  for (const clause of clauses) {
    const colon = clause.indexOf(':');
    const key = clause.slice(0, colon).trim();
    if (!OPTIONS.includes(key)) throw new Error(`${where}: unknown example option "${key}" (one of ${OPTIONS.join(', ')})`);
    options[key] = clause.slice(colon + 1).trim();
  }
  if (kind === 'not run' && !options.why) throw new Error(`${where}: a "not run" example must say why`);
  return { kind, options };
}

/** Every fenced block of a markdown text, with the marker before it if any. */
export function readBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  let pending: { marker: Marker; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const marker = MARKER.exec(line.trim());
    if (marker) {
      pending = { marker: parseMarker(marker[1] as string, `${file}:${i + 1}`), line: i + 1 };
      continue;
    }
    const fence = /^(\s*)(`{3,})(.*)$/.exec(line);
    if (!fence) {
      // A marker stays attached across blank lines only: prose between a marker and a fence detaches it.
      if (pending && line.trim() !== '') throw new Error(`${file}:${pending.line}: example marker not followed by a code block`);
      continue;
    }
    const [, indent = '', ticks = '', info = ''] = fence;
    const body: string[] = [];
    let end = i + 1;
    while (end < lines.length && !(lines[end] as string).trim().startsWith(ticks)) {
      body.push((lines[end] as string).slice(indent.length));
      end++;
    }
    blocks.push({ file, line: i + 1, lang: info.trim(), text: body.join('\n'), marker: pending?.marker });
    pending = undefined;
    i = end;
  }
  return blocks;
}

/**
 * Whether a block is of a kind a reader would run (a shell command, a GraphQL document, an HTTP request): such a
 * block must carry a marker, so an example added later is either executed or says why not.
 */
export function isRunnableKind(block: DocBlock): boolean {
  if (['sh', 'bash', 'shell', 'console', 'graphql', 'gql', 'http'].includes(block.lang)) return true;
  return /\bcurl\s|\bnpm run\b|^\s*(query|mutation)\b/m.test(block.text);
}
