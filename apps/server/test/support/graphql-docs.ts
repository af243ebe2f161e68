import { fileItemProposals } from '@mds/entities';
import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { BOOTSTRAP, ingestSnapshots } from './datahub-files';
import type { Mds } from './mds';

/** DataHub's documented GraphQL examples (test/fixtures/datahub-graphql-docs, sources in its README.md). */
export const DOCS_FIXTURES = new URL('../fixtures/datahub-graphql-docs/', import.meta.url);

/** How one leaf of a documented response is compared with the answer. */
export interface DocumentedField {
  /** Dotted path into the documented response, array indexes as numbers: `data.dataset.tags.tags.0.tag.urn`. */
  path: string;
  /** `value`: equal; `type`: same JSON type (and `pattern`), for generated ids; `oneOf`: one of `among`, for ranked hits. */
  compare: 'value' | 'type' | 'oneOf';
  pattern?: string;
  among?: unknown[];
  /** Where the answer holds it, when the docs name the field otherwise (a copy error in the docs, said in `why`). */
  answeredAt?: string;
  why?: string;
}

export interface DocsExample {
  source: { repo: string; path: string; commit: string; section: string };
  /** The root field the example exercises. */
  operation: string;
  request: { query: string; variables: Record<string, unknown> };
  /** The response as the docs print it (verbatim), or null when the docs show none. */
  documentedResponse: { data: unknown } | null;
  documentedFields: DocumentedField[];
  notes?: string[];
}

export const exampleNames = () =>
  readdirSync(DOCS_FIXTURES)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length));

export const loadExample = (name: string): DocsExample =>
  JSON.parse(readFileSync(new URL(`${name}.json`, DOCS_FIXTURES), 'utf8')) as DocsExample;

/** The leaves of a JSON value by dotted path; null, scalars, empty objects and empty arrays are leaves. */
export function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (v: unknown, path: string) => {
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : v && typeof v === 'object' ? Object.entries(v) : [];
    if (entries.length === 0) out.set(path, v);
    else for (const [key, x] of entries) walk(x, path ? `${path}.${key}` : key);
  };
  walk(value, prefix);
  return out;
}

const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * How an answer differs from the documented response on the fields DataHub documents: the answer must have exactly the
 * documented leaves (same keys, same list lengths), each compared as its DocumentedField says. `extensions` is not
 * compared: DataHub prints an empty object there, which carries no field. An empty list means they agree.
 */
export function differences(example: DocsExample, answer: { data?: unknown; errors?: { message: string }[] }): string[] {
  if (answer.errors?.length) return [`error: ${answer.errors[0]!.message}`];
  if (!example.documentedResponse) return [];
  const documented = leaves({ data: example.documentedResponse.data });
  const actual = leaves({ data: answer.data });
  const rules = new Map(example.documentedFields.map((field) => [field.path, field]));
  const found: string[] = [];
  const expectedPaths = new Set<string>();
  for (const [path, value] of documented) {
    const rule = rules.get(path);
    if (!rule) {
      found.push(`${path}: the fixture does not say how to compare it`);
      continue;
    }
    const at = rule.answeredAt ?? path;
    expectedPaths.add(at);
    if (!actual.has(at)) {
      found.push(`${at}: missing`);
      continue;
    }
    const got = actual.get(at);
    const show = `${at}: documented ${JSON.stringify(value)}, got ${JSON.stringify(got)}`;
    if (rule.compare === 'value' && JSON.stringify(got) !== JSON.stringify(value)) found.push(show);
    if (rule.compare === 'type' && (jsonType(got) !== jsonType(value) || (rule.pattern && !new RegExp(rule.pattern).test(String(got)))))
      found.push(show);
    if (rule.compare === 'oneOf' && !rule.among?.some((v) => JSON.stringify(v) === JSON.stringify(got))) found.push(show);
  }
  for (const path of actual.keys())
    if (!expectedPaths.has(path)) found.push(`${path}: not documented, got ${JSON.stringify(actual.get(path))}`);
  return found;
}

/** DataHub's bootstrap file (its quickstart's sample data), all of it: MCEs as the CLI batches them, then its MCPs. */
export async function ingestSampleData(mds: Mds) {
  await ingestSnapshots(mds, BOOTSTRAP);
  const items = JSON.parse(readFileSync(BOOTSTRAP, 'utf8')) as { proposedSnapshot?: unknown }[];
  const proposals = items.flatMap((item, i) =>
    item.proposedSnapshot ? [] : fileItemProposals(item, `bootstrap_mce.json[${i}]`).map((p) => p.proposal),
  );
  const res = await mds.post('/aspects?action=ingestProposalBatch', { proposals });
  expect([res.status, res.body]).toEqual([200, { value: 'success' }]);
}

/** Writes one aspect over Rest.li, as DataHub's Python emitter does. */
export async function upsertAspect(mds: Mds, entityType: string, entityUrn: string, aspectName: string, value: unknown) {
  const proposal = {
    entityType,
    entityUrn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { contentType: 'application/json', value: JSON.stringify(value) },
  };
  const res = await mds.post('/aspects?action=ingestProposal', { proposal });
  expect([res.status, res.body]).toEqual([200, { value: entityUrn }]);
}
