import fc from 'fast-check';

// Values that break naive code: boundaries of numbers, strings that are syntax somewhere (SQL, FTS5, urns, JSON,
// paths), odd Unicode, and JSON shapes that are not what a field expects.

const EDGE_STRINGS = [
  '',
  ' ',
  '*',
  '"',
  "'",
  '\\',
  '\u0000',
  '\n',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'NaN',
  '-1',
  '0',
  '9007199254740993',
  'urn:li:tag:',
  'urn:li:tag:fuzz',
  'urn:li:tag:fuzz,x',
  'urn:li:tag:(a)',
  'urn:li:tag: spaced',
  'urn:li:corpuser:fuzz-target',
  'urn:li:corpuser:',
  'urn:li:dataHubRole:Admin',
  'urn:li:dataHubRole:Reader',
  'urn:li:dataHubRole:Nope',
  'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)',
  'urn:li:dashboard:(looker,x)',
  "'; DROP TABLE tags; --",
  '" OR 1=1 --',
  'NEAR(a b)',
  'a AND OR NOT b',
  '"unterminated',
  'title:*',
  '^a*',
  '%00',
  '../../etc/passwd',
  '/tmp/mds.db',
  '#FFF',
  '#GGGGGG',
  'ONE_HOUR',
  'NO_EXPIRY',
  'PERSONAL',
  'dataset',
  'datasetProfile',
  'DATASETPROFILE',
  'dashboard',
  'dashboardUsageStatistics',
  'x'.repeat(200),
  'y'.repeat(201),
  'z'.repeat(5001),
  '\uD800',
  '\uFFFF',
  '🏷️ tag',
  'ǅemo',
  'Ω≈ç√',
  '\u202Etxet',
  'abc:1',
  'node_1:9007199254740991',
  'node:0',
];

const EDGE_NUMBERS = [
  0,
  -0,
  1,
  -1,
  2,
  10,
  100,
  999,
  1000,
  1001,
  5000,
  10_000,
  10_001,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  -(2 ** 31) - 1,
  2 ** 53 - 1,
  2 ** 53,
  -(2 ** 53),
  1e21,
  1e308,
  -1e308,
  0.5,
  -0.5,
  1.0000001,
  Number.MIN_VALUE,
  1767225600000,
  253402300800000,
];

export const edgeString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...EDGE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z][a-z0-9_-]{0,15}$/) },
);

export const edgeNumber = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...EDGE_NUMBERS) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
);

/** Any JSON value, biased to edges, shallow. */
export const edgeJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    edgeString,
    edgeNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(edgeString, tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** `[[[…]]]` or `{"a":{"a":…}}` nested `depth` levels, as JSON text (JSON.parse copes; recursive code may not). */
export function deeplyNested(kind: 'array' | 'object', depth: number): string {
  return kind === 'array' ? '['.repeat(depth) + '1' + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Lone surrogates replaced by U+FFFD (String.prototype.toWellFormed, which the TypeScript lib here lacks). */
export const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
