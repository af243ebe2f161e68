import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMds, type Mds } from './support/mds';

// GET /restli/docs: Rest.li's resource documentation, generated from the actions and reads the server registered.
let mds: Mds;
beforeAll(async () => {
  mds = await startMds();
});
afterAll(() => mds?.close());

/** The HTML of the element with `id` (a section of the page), up to its closing tag. */
function section(html: string, id: string): string | undefined {
  const start = html.indexOf(`id="${id}"`);
  if (start < 0) return undefined;
  return html.slice(start, html.indexOf('</section>', start));
}
const parameters = (html: string) => [...html.matchAll(/<code class="param">([^<]+)<\/code>/g)].map((m) => m[1]).sort();

describe('GET /restli/docs', () => {
  it('is an HTML page served without credentials, under every Rest.li prefix', async () => {
    for (const path of ['/restli/docs', '/gms/restli/docs', '/api/gms/restli/docs']) {
      const res = await fetch(mds.url + path);
      expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 200, 'text/html; charset=utf-8']);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await res.text()).toMatch(/^<!doctype html>[\s\S]*<h1>Rest.li resources<\/h1>/);
    }
  });

  it('lists every served action with every parameter it takes, required ones marked', async () => {
    const html = await (await fetch(`${mds.url}/restli/docs`)).text();
    const served = mds.domains.modules.flatMap((module) => module.actions ?? []);
    expect(served.length).toBeGreaterThan(10);
    for (const action of served) {
      const listed = section(html, `action-${action.resource}-${action.name}`);
      expect(listed, `${action.resource}?action=${action.name}`).toBeDefined();
      expect([action.name, parameters(listed!)]).toEqual([
        action.name,
        Object.keys((action.params as unknown as { shape: object }).shape).sort(),
      ]);
    }
    const search = section(html, 'action-entities-search')!;
    expect(search).toContain('POST <code>/entities?action=search</code>');
    expect(search).toMatch(/<code class="param">input<\/code><\/td><td>string<\/td><td>required/);
    expect(search).toMatch(/<code class="param">sortCriteria<\/code><\/td><td>array of record<\/td><td>optional/);
    expect(section(html, 'action-operations-getIndexSizes')).toContain('No parameters.');
  });

  it('lists every Rest.li read with its forms and query parameters', async () => {
    const html = await (await fetch(`${mds.url}/restli/docs`)).text();
    const reads = mds.domains.modules.flatMap((module) => module.reads ?? []);
    expect(reads.map((r) => r.resource).sort()).toEqual(['aspects', 'entities', 'entitiesV2', 'relationships']);
    for (const read of reads) {
      for (const form of read.forms ?? []) {
        const listed = section(html, `get-${read.resource}${form.key ? '-keyed' : ''}`);
        expect(listed, `GET /${read.resource}`).toBeDefined();
        expect(parameters(listed!)).toEqual([...(form.key ? [form.key] : []), ...form.query.map((q) => q.name)].sort());
      }
    }
    expect(section(html, 'get-entitiesV2')).toMatch(/<code class="param">ids<\/code><\/td><td>array: List\(a,b\)/);
  });
});
