import { ApiError } from '@mds/schema';
import { describe, expect, it } from 'vitest';
import { applyPatch, supportsPatch } from '../../src/model/patch';

const PII = 'urn:li:tag:pii';
const GOLD = 'urn:li:tag:gold';
const TERM = 'urn:li:glossaryTerm:Classification.Sensitive';
const JDOE = 'urn:li:corpuser:jdoe';
const ADMINS = 'urn:li:corpGroup:admins';
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const CHART = 'urn:li:chart:(looker,orders)';
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,PROD),load)';
const SYSTEM_STAMP = { time: 0, actor: 'urn:li:corpuser:__datahub_system' };
const UNIT_SEPARATOR = '\u241F';

const tag = (urn: string) => ({ tag: urn });
const add = (path: string, value: unknown) => ({ op: 'add', path, value });
const remove = (path: string) => ({ op: 'remove', path, value: {} });

/** The ApiError `run` throws. */
function apiError(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected an ApiError');
}

describe('supportsPatch', () => {
  it('accepts the template aspects and refuses the others', () => {
    const table = [
      'globalTags',
      'glossaryTerms',
      'ownership',
      'upstreamLineage',
      'editableSchemaMetadata',
      'datasetProperties',
      'dataFlowInfo',
      'dataJobInfo',
      'chartInfo',
      'dashboardInfo',
      'containerProperties',
      'dataJobInputOutput',
      'status',
    ];
    for (const aspect of table) expect(supportsPatch(aspect), aspect).toBe(true);
    for (const aspect of ['subTypes', 'schemaMetadata', 'institutionalMemory', '__proto__', 'toString'])
      expect(supportsPatch(aspect), aspect).toBe(false);
  });

  it('answers 422 with the exact text for an aspect without a template', () => {
    const error = apiError(() => applyPatch('subTypes', { typeNames: ['Table'] }, [{ op: 'add', path: '/typeNames/0', value: 'View' }]));
    expect(error.status).toBe(422);
    expect(error.message).toBe('Aspect: subTypes does not currently support patch operations.');
    expect(apiError(() => applyPatch('__proto__', undefined, [])).message).toBe(
      'Aspect: __proto__ does not currently support patch operations.',
    );
  });

  it("patches status as DataHub 1.x's StatusTemplate does (its ingestion sources emit `add /removed`)", () => {
    expect(applyPatch('status', undefined, [{ op: 'add', path: '/removed', value: false }])).toEqual({ removed: false });
    expect(applyPatch('status', { removed: false }, [{ op: 'replace', path: '/removed', value: true }])).toEqual({ removed: true });
  });

  it('refuses a generic aspect before looking at the patch', () => {
    expect(apiError(() => applyPatch('institutionalMemory', undefined, 'junk')).status).toBe(422);
  });
});

describe('globalTags (Python add_tag / remove_tag)', () => {
  it('add_tag on an absent aspect starts from {tags: []}', () => {
    expect(applyPatch('globalTags', undefined, [add(`/tags/${PII}`, tag(PII))])).toEqual({ tags: [tag(PII)] });
  });

  it('keeps the original order and appends new tags', () => {
    const current = { tags: [tag(GOLD), tag('urn:li:tag:b'), tag('urn:li:tag:a')] };
    expect(applyPatch('globalTags', current, [add(`/tags/${PII}`, tag(PII))])).toEqual({
      tags: [tag(GOLD), tag('urn:li:tag:b'), tag('urn:li:tag:a'), tag(PII)],
    });
  });

  it('is idempotent on a repeated add, and an add on an existing key replaces it in place', () => {
    const once = applyPatch('globalTags', { tags: [tag(PII), tag(GOLD)] }, [add(`/tags/${PII}`, tag(PII))]);
    expect(once).toEqual({ tags: [tag(PII), tag(GOLD)] });
    const twice = applyPatch('globalTags', once, [add(`/tags/${PII}`, tag(PII)), add(`/tags/${PII}`, tag(PII))]);
    expect(twice).toEqual({ tags: [tag(PII), tag(GOLD)] });
    const withContext = applyPatch('globalTags', twice, [add(`/tags/${PII}`, { tag: PII, context: 'reviewed' })]);
    expect(withContext).toEqual({ tags: [{ tag: PII, context: 'reviewed' }, tag(GOLD)] });
  });

  it('remove_tag drops the tag (value {} or none); removing an absent tag is a no-op', () => {
    const current = { tags: [tag(PII), tag(GOLD)] };
    expect(applyPatch('globalTags', current, [remove(`/tags/${PII}`)])).toEqual({ tags: [tag(GOLD)] });
    expect(applyPatch('globalTags', current, [{ op: 'remove', path: `/tags/${GOLD}` }])).toEqual({ tags: [tag(PII)] });
    expect(applyPatch('globalTags', current, [remove('/tags/urn:li:tag:absent')])).toEqual(current);
    expect(applyPatch('globalTags', undefined, [remove(`/tags/${PII}`)])).toEqual({ tags: [] });
  });

  it('keeps fields outside the keyed array and never mutates the current value', () => {
    const current = { tags: [tag(GOLD)], extra: { nested: [1, 2] } };
    const snapshot = structuredClone(current);
    const result = applyPatch('globalTags', current, [add(`/tags/${PII}`, tag(PII))]);
    expect(result).toEqual({ tags: [tag(GOLD), tag(PII)], extra: { nested: [1, 2] } });
    expect(current).toEqual(snapshot);
    expect(result.extra).not.toBe(current.extra);
  });

  it('unescapes ~1 and ~0 in path segments', () => {
    const odd = 'urn:li:tag:a/b~c';
    expect(applyPatch('globalTags', undefined, [add('/tags/urn:li:tag:a~1b~0c', tag(odd))])).toEqual({ tags: [tag(odd)] });
    expect(applyPatch('globalTags', { tags: [tag(odd)] }, [remove('/tags/urn:li:tag:a~1b~0c')])).toEqual({ tags: [] });
  });

  it('keeps keys that look like array indexes in their original order', () => {
    const current = { tags: [tag('b'), tag('10'), tag('2')] };
    expect(applyPatch('globalTags', current, [add('/tags/1', tag('1'))])).toEqual({ tags: [tag('b'), tag('10'), tag('2'), tag('1')] });
  });
});

describe('glossaryTerms', () => {
  const term = (urn: string) => ({ urn });

  it('adds a term on an absent aspect, with a system audit stamp so the value validates', () => {
    expect(applyPatch('glossaryTerms', undefined, [add(`/terms/${TERM}`, term(TERM))])).toEqual({
      terms: [term(TERM)],
      auditStamp: SYSTEM_STAMP,
    });
  });

  it('keys terms by urn, keeps order and removes', () => {
    const stamp = { time: 5, actor: JDOE };
    const current = { terms: [term('urn:li:glossaryTerm:b'), term(TERM)], auditStamp: stamp };
    expect(
      applyPatch('glossaryTerms', current, [add('/terms/urn:li:glossaryTerm:a', term('urn:li:glossaryTerm:a')), remove(`/terms/${TERM}`)]),
    ).toEqual({ terms: [term('urn:li:glossaryTerm:b'), term('urn:li:glossaryTerm:a')], auditStamp: stamp });
  });
});

describe('ownership (Python add_owner / remove_owner)', () => {
  const owner = (urn: string, type: string) => ({ owner: urn, type });

  it('add_owner keys by owner then type', () => {
    const patch = [
      add(`/owners/${JDOE}/DATAOWNER`, owner(JDOE, 'DATAOWNER')),
      add(`/owners/${ADMINS}/TECHNICAL_OWNER`, owner(ADMINS, 'TECHNICAL_OWNER')),
      add(`/owners/${JDOE}/TECHNICAL_OWNER`, owner(JDOE, 'TECHNICAL_OWNER')),
      add(`/owners/${JDOE}/DATAOWNER`, owner(JDOE, 'DATAOWNER')),
    ];
    expect(applyPatch('ownership', undefined, patch)).toEqual({
      owners: [owner(JDOE, 'DATAOWNER'), owner(JDOE, 'TECHNICAL_OWNER'), owner(ADMINS, 'TECHNICAL_OWNER')],
    });
  });

  it('remove_owner drops every type of that owner and keeps the others in order', () => {
    const current = {
      owners: [owner(ADMINS, 'DATAOWNER'), owner(JDOE, 'DATAOWNER'), owner('urn:li:corpuser:z', 'NONE'), owner(JDOE, 'DEVELOPER')],
      lastModified: { time: 1, actor: JDOE },
    };
    expect(applyPatch('ownership', current, [remove(`/owners/${JDOE}`)])).toEqual({
      owners: [owner(ADMINS, 'DATAOWNER'), owner('urn:li:corpuser:z', 'NONE')],
      lastModified: { time: 1, actor: JDOE },
    });
  });

  it('removes one type of an owner', () => {
    const current = { owners: [owner(JDOE, 'DATAOWNER'), owner(JDOE, 'DEVELOPER')] };
    expect(applyPatch('ownership', current, [remove(`/owners/${JDOE}/DATAOWNER`)])).toEqual({ owners: [owner(JDOE, 'DEVELOPER')] });
  });
});

describe('upstreamLineage (Python add_upstream_lineage)', () => {
  const upstream = (dataset: string, type = 'TRANSFORMED') => ({
    auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' },
    dataset,
    type,
  });

  it('adds upstreams keyed by dataset, replacing an existing one in place', () => {
    const current = { upstreams: [upstream(USERS, 'COPY'), upstream(ORDERS)] };
    expect(
      applyPatch('upstreamLineage', current, [
        add(`/upstreams/${USERS}`, upstream(USERS)),
        add(`/upstreams/${JOB}`, upstream(JOB, 'VIEW')),
      ]),
    ).toEqual({ upstreams: [upstream(USERS), upstream(ORDERS), upstream(JOB, 'VIEW')], fineGrainedLineages: [] });
  });

  const field = (dataset: string, path: string) => `urn:li:schemaField:(${dataset},${path})`;
  const QUERY = 'urn:li:query:3f2c70007dcf';

  it("fine-grained lineages as DataHub's template patches them: operation/downstream/query/upstream, on an absent aspect", () => {
    const patch = [
      add(`/fineGrainedLineages/NONE/${field(JOB, 'id')}/NONE/${field(USERS, 'id')}`, { confidenceScore: 1 }),
      add(`/fineGrainedLineages/COPY: "U"."ID"/${field(JOB, 'name')}/${QUERY}/${field(USERS, 'name')}`, { confidenceScore: 0.9 }),
      add(`/fineGrainedLineages/COPY: "U"."ID"/${field(JOB, 'name')}/${QUERY}/${field(ORDERS, 'name')}`, { confidenceScore: 0.5 }),
    ];
    expect(applyPatch('upstreamLineage', undefined, patch)).toEqual({
      upstreams: [],
      fineGrainedLineages: [
        {
          downstreams: [field(JOB, 'id')],
          upstreams: [field(USERS, 'id')],
          upstreamType: 'FIELD_SET',
          downstreamType: 'FIELD',
          confidenceScore: 1,
          transformOperation: 'NONE',
        },
        {
          downstreams: [field(JOB, 'name')],
          upstreams: [field(USERS, 'name'), field(ORDERS, 'name')],
          query: QUERY,
          upstreamType: 'FIELD_SET',
          downstreamType: 'FIELD',
          confidenceScore: 0.5,
          transformOperation: 'COPY: "U"."ID"',
        },
      ],
    });
  });

  it('fine-grained lineages: stored ones keyed the same way, an upstream removed, a lineage left without upstreams dropped', () => {
    const current = {
      upstreams: [upstream(USERS)],
      fineGrainedLineages: [
        {
          upstreamType: 'FIELD_SET',
          upstreams: [field(USERS, 'id'), field(USERS, 'key')],
          downstreamType: 'FIELD',
          downstreams: [field(JOB, 'id')],
        },
        {
          upstreamType: 'DATASET',
          upstreams: [USERS],
          downstreamType: 'FIELD',
          downstreams: [field(JOB, 'all')],
          transformOperation: 'COPY',
          query: QUERY,
        },
      ],
    };
    const patch = [
      remove(`/fineGrainedLineages/NONE/${field(JOB, 'id')}/NONE/${field(USERS, 'key')}`),
      remove(`/fineGrainedLineages/COPY/${field(JOB, 'all')}/${QUERY}/${USERS}`),
    ];
    expect(applyPatch('upstreamLineage', current, patch)).toEqual({
      upstreams: [upstream(USERS)],
      fineGrainedLineages: [
        {
          downstreams: [field(JOB, 'id')],
          upstreams: [field(USERS, 'id')],
          upstreamType: 'FIELD_SET',
          downstreamType: 'FIELD',
          confidenceScore: 1,
          transformOperation: 'NONE',
        },
      ],
    });
  });

  it('fine-grained lineages with other than one downstream cannot be patched (a 422, as DataHub refuses them)', () => {
    const current = {
      upstreams: [],
      fineGrainedLineages: [{ upstreamType: 'FIELD_SET', downstreamType: 'FIELD_SET', downstreams: ['a', 'b'] }],
    };
    expect(() => applyPatch('upstreamLineage', current, [add(`/upstreams/${USERS}`, upstream(USERS))])).toThrow(
      'Patching not supported on fine grained lineages with not exactly one downstream',
    );
  });

  it('replaces the whole array with /upstreams, which stays keyed for later ops', () => {
    const current = { upstreams: [upstream(USERS)], fineGrainedLineages: [] };
    const patch = [add('/upstreams', [upstream(ORDERS)]), add(`/upstreams/${USERS}`, upstream(USERS, 'COPY'))];
    expect(applyPatch('upstreamLineage', current, patch)).toEqual({
      upstreams: [upstream(ORDERS), upstream(USERS, 'COPY')],
      fineGrainedLineages: [],
    });
  });
});

describe('customProperties and scalars (Python add_custom_property / set_description)', () => {
  it('datasetProperties: add_custom_property and set_description on an absent aspect', () => {
    const patch = [add('/customProperties/owner_team', 'core'), add('/customProperties/a~1b', 'slash'), add('/description', 'Orders.')];
    expect(applyPatch('datasetProperties', undefined, patch)).toEqual({
      customProperties: { owner_team: 'core', 'a/b': 'slash' },
      description: 'Orders.',
    });
  });

  it('datasetProperties: replaces, removes and appends keys, keeping the rest', () => {
    const current = { name: 'orders', customProperties: { a: '1', b: '2' }, description: 'old' };
    const patch = [
      add('/customProperties/a', '10'),
      remove('/customProperties/b'),
      add('/customProperties/c', '3'),
      add('/description', 'new'),
    ];
    expect(applyPatch('datasetProperties', current, patch)).toEqual({
      name: 'orders',
      customProperties: { a: '10', c: '3' },
      description: 'new',
    });
  });

  it('creates customProperties when an existing value has none, and leaves none behind if nothing stays', () => {
    expect(applyPatch('datasetProperties', { name: 'x' }, [add('/customProperties/k', 'v')])).toEqual({
      name: 'x',
      customProperties: { k: 'v' },
    });
    expect(applyPatch('datasetProperties', { name: 'x' }, [remove('/customProperties/k')])).toEqual({ name: 'x' });
  });

  it('dataFlowInfo, dataJobInfo, containerProperties: start from their empty values', () => {
    const patch = [add('/customProperties/k', 'v'), add('/name', 'etl')];
    expect(applyPatch('dataFlowInfo', undefined, patch)).toEqual({ name: 'etl', customProperties: { k: 'v' } });
    expect(applyPatch('dataJobInfo', undefined, patch)).toEqual({ name: 'etl', type: { string: '' }, customProperties: { k: 'v' } });
    expect(applyPatch('containerProperties', undefined, patch)).toEqual({ name: 'etl', customProperties: { k: 'v' } });
  });

  it('chartInfo and dashboardInfo: /title, /externalUrl and custom properties', () => {
    const patch = [add('/title', 'Orders'), add('/externalUrl', 'https://bi/o'), add('/customProperties/k', 'v')];
    const expected = {
      title: 'Orders',
      description: '',
      lastModified: { created: SYSTEM_STAMP, lastModified: SYSTEM_STAMP },
      customProperties: { k: 'v' },
      externalUrl: 'https://bi/o',
    };
    expect(applyPatch('chartInfo', undefined, patch)).toEqual(expected);
    expect(applyPatch('dashboardInfo', undefined, patch)).toEqual(expected);
  });
});

describe('edges keyed by destinationUrn', () => {
  const edge = (urn: string, extra: Record<string, unknown> = {}) => ({ destinationUrn: urn, ...extra });
  const stamps = { created: { time: 1, actor: JDOE }, lastModified: { time: 1, actor: JDOE } };
  const dashboard = { title: 't', description: 'd', lastModified: stamps };

  it('dashboardInfo datasetEdges and chartEdges', () => {
    const current = { ...dashboard, datasetEdges: [edge(USERS)] };
    const patch = [
      add(`/datasetEdges/${ORDERS}`, edge(ORDERS)),
      add(`/datasetEdges/${USERS}`, edge(USERS, { properties: { k: 'v' } })),
      add(`/chartEdges/${CHART}`, edge(CHART)),
    ];
    expect(applyPatch('dashboardInfo', current, patch)).toEqual({
      ...dashboard,
      datasetEdges: [edge(USERS, { properties: { k: 'v' } }), edge(ORDERS)],
      chartEdges: [edge(CHART)],
    });
    expect(
      applyPatch('dashboardInfo', { ...dashboard, chartEdges: [edge(CHART)] }, [
        remove(`/chartEdges/${CHART}`),
        remove(`/datasetEdges/${ORDERS}`),
      ]),
    ).toEqual({ ...dashboard, chartEdges: [] });
  });

  it('chartInfo inputEdges', () => {
    const current = { ...dashboard, inputEdges: [edge(USERS), edge(ORDERS)] };
    expect(applyPatch('chartInfo', current, [remove(`/inputEdges/${USERS}`), add(`/inputEdges/${JOB}`, edge(JOB))])).toEqual({
      ...dashboard,
      inputEdges: [edge(ORDERS), edge(JOB)],
    });
  });

  it('dataJobInputOutput inputDatasetEdges, outputDatasetEdges and inputDatajobEdges', () => {
    const patch = [
      add(`/inputDatasetEdges/${USERS}`, edge(USERS)),
      add(`/outputDatasetEdges/${ORDERS}`, edge(ORDERS)),
      add(`/inputDatajobEdges/${JOB}`, edge(JOB)),
      add(`/inputDatasetEdges/${USERS}`, edge(USERS)),
    ];
    expect(applyPatch('dataJobInputOutput', undefined, patch)).toEqual({
      inputDatasets: [],
      outputDatasets: [],
      inputDatasetEdges: [edge(USERS)],
      outputDatasetEdges: [edge(ORDERS)],
      inputDatajobEdges: [edge(JOB)],
    });
  });
});

describe('editableSchemaMetadata (Python for_field(...).add_tag)', () => {
  const FIELD = 'customer.email';

  it('adds a field tag on an absent aspect, creating the field info', () => {
    expect(
      applyPatch('editableSchemaMetadata', undefined, [add(`/editableSchemaFieldInfo/${FIELD}/globalTags/tags/${PII}`, tag(PII))]),
    ).toEqual({ editableSchemaFieldInfo: [{ fieldPath: FIELD, globalTags: { tags: [tag(PII)] } }] });
  });

  it('patches nested tags, terms and description of existing fields, keeping field and tag order', () => {
    const current = {
      created: { time: 1, actor: JDOE },
      editableSchemaFieldInfo: [
        { fieldPath: 'id', description: 'key' },
        { fieldPath: FIELD, globalTags: { tags: [tag(GOLD)] } },
      ],
    };
    const patch = [
      add(`/editableSchemaFieldInfo/${FIELD}/globalTags/tags/${PII}`, tag(PII)),
      add(`/editableSchemaFieldInfo/${FIELD}/globalTags/tags/${PII}`, tag(PII)),
      add(`/editableSchemaFieldInfo/id/glossaryTerms/terms/${TERM}`, { urn: TERM }),
      add(`/editableSchemaFieldInfo/${FIELD}/description`, 'Email.'),
      add('/editableSchemaFieldInfo/new/description', 'New field.'),
      remove('/editableSchemaFieldInfo/id/globalTags/tags/urn:li:tag:absent'),
    ];
    expect(applyPatch('editableSchemaMetadata', current, patch)).toEqual({
      created: { time: 1, actor: JDOE },
      editableSchemaFieldInfo: [
        { fieldPath: 'id', description: 'key', glossaryTerms: { terms: [{ urn: TERM }], auditStamp: SYSTEM_STAMP } },
        { fieldPath: FIELD, globalTags: { tags: [tag(GOLD), tag(PII)] }, description: 'Email.' },
        { fieldPath: 'new', description: 'New field.' },
      ],
    });
  });

  it('removes a field tag', () => {
    const current = { editableSchemaFieldInfo: [{ fieldPath: FIELD, globalTags: { tags: [tag(PII), tag(GOLD)] } }] };
    expect(applyPatch('editableSchemaMetadata', current, [remove(`/editableSchemaFieldInfo/${FIELD}/globalTags/tags/${PII}`)])).toEqual({
      editableSchemaFieldInfo: [{ fieldPath: FIELD, globalTags: { tags: [tag(GOLD)] } }],
    });
  });
});

describe('arrayPrimaryKeys form', () => {
  const SOURCE = 'urn:li:dataHubAction:classifier';
  const attributed = (urn: string, source: string) => ({ tag: urn, attribution: { time: 1, actor: JDOE, source } });
  const keys = { tags: ['tag', `attribution${UNIT_SEPARATOR}source`] };

  it('keys tags by (tag, attribution.source), a missing source being ""', () => {
    const current = { tags: [tag(GOLD), tag(PII)] };
    const patch = {
      patch: [add(`/tags/${PII}/${SOURCE}`, attributed(PII, SOURCE)), add(`/tags/${GOLD}/`, tag(GOLD))],
      arrayPrimaryKeys: keys,
      forceGenericPatch: false,
    };
    expect(applyPatch('globalTags', current, patch)).toEqual({ tags: [tag(GOLD), tag(PII), attributed(PII, SOURCE)] });
  });

  it('removes one (tag, source) pair, or every source of a tag', () => {
    const current = { tags: [tag(PII), attributed(PII, SOURCE), tag(GOLD)] };
    expect(applyPatch('globalTags', current, { patch: [remove(`/tags/${PII}/`)], arrayPrimaryKeys: keys })).toEqual({
      tags: [attributed(PII, SOURCE), tag(GOLD)],
    });
    expect(applyPatch('globalTags', current, { patch: [remove(`/tags/${PII}`)], arrayPrimaryKeys: keys })).toEqual({ tags: [tag(GOLD)] });
  });

  it('accepts keys in the other order and a plain {patch} object', () => {
    const patch = {
      patch: [add(`/tags/${SOURCE}/${PII}`, attributed(PII, SOURCE))],
      arrayPrimaryKeys: { tags: [`attribution${UNIT_SEPARATOR}source`, 'tag'] },
    };
    expect(applyPatch('globalTags', undefined, patch)).toEqual({ tags: [attributed(PII, SOURCE)] });
    expect(applyPatch('globalTags', undefined, { patch: [add(`/tags/${PII}`, tag(PII))] })).toEqual({ tags: [tag(PII)] });
  });

  it('accepts a map-form value for a whole keyed level', () => {
    const patch = { patch: [add(`/tags/${PII}`, { [SOURCE]: attributed(PII, SOURCE) })], arrayPrimaryKeys: keys };
    expect(applyPatch('globalTags', { tags: [tag(PII), tag(GOLD)] }, patch)).toEqual({ tags: [attributed(PII, SOURCE), tag(GOLD)] });
  });
});

describe('RFC 6902 ops on the transformed document', () => {
  it('replace, test, move and copy', () => {
    const current = { description: 'a', customProperties: { k: 'v' }, tags: ['x'] };
    const patch = [
      { op: 'test', path: '/customProperties', value: { k: 'v' } },
      { op: 'replace', path: '/description', value: 'b' },
      { op: 'copy', from: '/description', path: '/name' },
      { op: 'move', from: '/customProperties/k', path: '/customProperties/moved' },
      { op: 'add', path: '/tags/0', value: 'first' },
      { op: 'add', path: '/tags/-', value: 'last' },
      { op: 'replace', path: '/tags/1', value: 'y' },
    ];
    expect(applyPatch('datasetProperties', current, patch)).toEqual({
      description: 'b',
      customProperties: { moved: 'v' },
      tags: ['first', 'y', 'last'],
      name: 'b',
    });
  });

  it('tests keyed arrays in their array form and copies keyed items', () => {
    const current = { tags: [tag(PII)] };
    const patch = [
      { op: 'test', path: '/tags', value: [tag(PII)] },
      { op: 'test', path: `/tags/${PII}`, value: tag(PII) },
    ];
    expect(applyPatch('globalTags', current, patch)).toEqual(current);
  });
});

describe('malformed patches answer 400', () => {
  const cases: [string, unknown, string][] = [
    ['not an array', { op: 'add' }, 'Invalid JSON Patch: expected an array of operations or an object with a "patch" array'],
    ['a string', '[]', 'Invalid JSON Patch: expected an array of operations or an object with a "patch" array'],
    ['op not an object', [add('/description', 'x'), 'add'], 'Invalid JSON Patch: operation 1 is not an object'],
    ['unknown op', [{ op: 'merge', path: '/description', value: 'x' }], 'Invalid JSON Patch: operation 0 has unknown op "merge"'],
    ['path not a string', [{ op: 'add', path: 3, value: 'x' }], 'Invalid JSON Patch: operation 0 (add) has no string path'],
    ['add without value', [{ op: 'add', path: '/description' }], 'Invalid JSON Patch: operation 0 (add /description) has no value'],
    [
      'test failing',
      [add('/description', 'x'), { op: 'test', path: '/description', value: 'y' }],
      'Invalid JSON Patch: operation 1 (test /description) failed: the value differs',
    ],
    [
      'replace of a missing path',
      [{ op: 'replace', path: '/description', value: 'x' }],
      'Invalid JSON Patch: operation 0 (replace /description) targets a missing path',
    ],
    [
      'path without a leading slash',
      [add('description', 'x')],
      'Invalid JSON Patch: operation 0 (add description) has a path not starting with "/"',
    ],
    [
      'add below an unknown absent field',
      [add('/nested/deeper', 'x')],
      'Invalid JSON Patch: operation 0 (add /nested/deeper) targets a missing parent',
    ],
    ['move without from', [{ op: 'move', path: '/name' }], 'Invalid JSON Patch: operation 0 (move /name) has no string from'],
    [
      'bad arrayPrimaryKeys',
      { patch: [], arrayPrimaryKeys: { tags: [] } },
      'Invalid JSON Patch: arrayPrimaryKeys must map array fields to non-empty lists of key fields',
    ],
  ];
  for (const [name, patch, message] of cases) {
    it(name, () => {
      const error = apiError(() => applyPatch('datasetProperties', { customProperties: {} }, patch));
      expect(error.status).toBe(400);
      expect(error.message).toBe(message);
    });
  }
});
