import type { RestliAction, RestliRead } from '@mds/schema';
import type { z } from 'zod';
import { pagePolicy } from './http/page-policy';

/** Where DataHub's GMS serves its Rest.li documentation, which its docs link to. */
export const RESTLI_DOCS_PATH = '/restli/docs';
const CSP = pagePolicy({ 'style-src': "'unsafe-inline'" });

/** One parameter of an action as the page lists it. */
export interface DocumentedParameter {
  name: string;
  required: boolean;
  type: string;
}

/** The inner definition of a zod schema (zod 4 keeps it on `_zod.def`). */
interface Def {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: readonly z.ZodType[];
  entries?: Record<string, string>;
  in?: z.ZodType;
  format?: string;
}
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Whether a parameter may be left out: optional or defaulted, under any nullable. */
function optional(schema: z.ZodType): boolean {
  const def = defOf(schema);
  if (def.type === 'optional' || def.type === 'default' || def.type === 'prefault') return true;
  return (def.type === 'nullable' || def.type === 'readonly') && optional(def.innerType!);
}

/** A short name of what a parameter takes. */
function typeName(schema: z.ZodType): string {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return typeName(def.innerType!);
    case 'pipe':
      return typeName(def.in!);
    case 'array':
      return `array of ${typeName(def.element!)}`;
    case 'object':
      return 'record';
    case 'union':
      return def.options!.map(typeName).join(' | ');
    case 'enum':
      return Object.values(def.entries!).join(' | ');
    case 'number':
      return def.format?.includes('int') ? 'integer' : 'number';
    case 'unknown':
    case 'any':
      return 'any JSON';
    default:
      return def.type;
  }
}

/** An action's parameters, from its schema (an object schema: every action's body is one). */
export function actionParameters(action: RestliAction): DocumentedParameter[] {
  const shape = (action.params as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.entries(shape).map(([name, schema]) => ({ name, required: !optional(schema), type: typeName(schema) }));
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const parameterRows = (parameters: readonly { name: string; required: boolean; type: string }[]) =>
  parameters.length === 0
    ? '<p>No parameters.</p>'
    : `<table><thead><tr><th>Parameter</th><th>Type</th><th>Required</th></tr></thead><tbody>${parameters
        .map(
          (p) =>
            `<tr><td><code class="param">${escape(p.name)}</code></td><td>${escape(p.type)}</td><td>${p.required ? 'required' : 'optional'}</td></tr>`,
        )
        .join('')}</tbody></table>`;

/**
 * Rest.li's resource documentation, generated from what this server registered: each resource with its GET forms and
 * its actions (`POST /<resource>?action=<name>`), each with its parameters, their types and whether they are required.
 */
export function restliDocsPage(actions: readonly RestliAction[], reads: readonly RestliRead[]): string {
  const resources = [...new Set([...reads.map((r) => r.resource as string), ...actions.map((a) => a.resource as string)])].sort();
  const sections = resources.map((resource) => {
    const gets = reads
      .filter((read) => read.resource === resource)
      .flatMap((read) => read.forms ?? [{ query: [] }])
      .map((form) => {
        const path = `/${resource}${form.key ? `/{${form.key}}` : ''}`;
        const rows = [
          ...(form.key ? [{ name: form.key, required: true, type: 'path segment (URL-encoded)' }] : []),
          ...form.query.map((q) => ({
            name: q.name,
            required: q.required ?? false,
            type: q.array ? 'array: List(a,b), a bare value, or repeated' : 'string',
          })),
        ];
        return `<section class="method" id="get-${escape(resource)}${form.key ? '-keyed' : ''}"><h3>GET <code>${escape(path)}</code></h3>${parameterRows(rows)}</section>`;
      });
    const posts = actions
      .filter((action) => action.resource === resource)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(
        (action) =>
          `<section class="action" id="action-${escape(resource)}-${escape(action.name)}"><h3>POST <code>/${escape(resource)}?action=${escape(action.name)}</code></h3>${parameterRows(actionParameters(action))}</section>`,
      );
    return `<section class="resource" id="resource-${escape(resource)}"><h2>${escape(resource)}</h2>${[...gets, ...posts].join('\n')}</section>`;
  });
  const index = resources.map((r) => `<li><a href="#resource-${escape(r)}">${escape(r)}</a></li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>mds · Rest.li resources</title>
<style>body { font-family: sans-serif; margin: 1.5rem; } table { border-collapse: collapse; margin-bottom: 1rem; }
td, th { border: 1px solid #ccc; padding: .25rem .5rem; text-align: left; }</style>
</head>
<body>
<h1>Rest.li resources</h1>
<p>Served at the root, under <code>/gms</code> and under <code>/api/gms</code>. Actions take a JSON body of their parameters;
a parameter not listed is refused with a 400 naming it.</p>
<ul>${index}</ul>
${sections.join('\n')}
</body>
</html>
`;
}

/** The page's headers: HTML, no framing, nothing loaded from elsewhere. */
export const RESTLI_DOCS_HEADERS = { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP } as const;
