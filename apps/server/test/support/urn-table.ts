// URN shapes hostile or careless clients send (issue 30 items 4-5): every face must answer each with a 2xx or a 4xx,
// never a 5xx. `wrongParts` marks the ones whose entity type is known but whose key has the wrong number of parts,
// which every face refuses with DataHub's 400 naming the urn.
export interface UrnCase {
  name: string;
  urn: string;
  wrongParts?: boolean;
}

export const URN_TABLE: readonly UrnCase[] = [
  { name: 'dataset with two parts', urn: 'urn:li:dataset:(a,b)', wrongParts: true },
  { name: 'dataset with four parts', urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD,x)', wrongParts: true },
  { name: 'corpuser as a tuple', urn: 'urn:li:corpuser:(a,b)', wrongParts: true },
  { name: 'chart with three parts', urn: 'urn:li:chart:(a,b,c)', wrongParts: true },
  { name: 'tag as a tuple', urn: 'urn:li:tag:(a,b)', wrongParts: true },
  { name: 'dataJob with a plain flow', urn: 'urn:li:dataJob:(a,b)' },
  { name: 'dataJob with one part', urn: 'urn:li:dataJob:job', wrongParts: true },
  { name: 'nested tuple as a platform', urn: 'urn:li:dataset:(urn:li:dataPlatform:(x,y),t,PROD)' },
  { name: 'bare nested tuple', urn: 'urn:li:dataset:((a,b),t,PROD)' },
  { name: 'unbalanced parenthesis', urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,t(,PROD)' },
  { name: 'empty tuple part', urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,,PROD)' },
  { name: 'unknown fabric', urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,NOWHERE)' },
  { name: 'comma in a simple key', urn: 'urn:li:tag:a,b' },
  { name: 'parenthesis in a simple key', urn: 'urn:li:tag:a(b' },
  { name: 'space in a tag', urn: 'urn:li:tag:a b' },
  { name: 'question mark', urn: 'urn:li:tag:a?b' },
  { name: 'hash', urn: 'urn:li:tag:a#b' },
  { name: 'slash and dots', urn: 'urn:li:tag:../../etc/passwd' },
  { name: 'bad percent escape', urn: 'urn:li:tag:%ZZ' },
  { name: 'encoded NUL', urn: 'urn:li:tag:a%00b' },
  { name: 'NUL', urn: 'urn:li:tag:a\u0000b' },
  { name: 'newline', urn: 'urn:li:tag:a\nb' },
  { name: 'carriage return in a dataset name', urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,a\rb,PROD)' },
  { name: 'lone surrogate', urn: 'urn:li:tag:a\uD800b' },
  { name: 'record separator symbol', urn: 'urn:li:tag:a\u241Fb' },
  { name: '600 bytes', urn: `urn:li:tag:${'x'.repeat(600)}` },
  { name: '600 bytes of dataset name', urn: `urn:li:dataset:(urn:li:dataPlatform:hive,${'é'.repeat(300)},PROD)` },
  { name: 'padding whitespace', urn: ' urn:li:tag:a ' },
  { name: 'unknown entity type', urn: 'urn:li:spaceship:x' },
  { name: 'no key', urn: 'urn:li:tag:' },
  { name: 'not a urn', urn: 'tag:a' },
  { name: 'empty', urn: '' },
  { name: 'other namespace', urn: 'urn:xx:tag:a' },
  { name: 'upper-case entity type', urn: 'urn:li:TAG:a' },
];

/** The urn as a path or query segment; a lone surrogate (which has no UTF-8 form) sent as the bytes a careless encoder writes. */
export function encodeUrn(urn: string): string {
  return [...urn].map((c) => (/[\uD800-\uDFFF]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c))).join('');
}
