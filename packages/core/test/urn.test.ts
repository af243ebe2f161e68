import { describe, expect, it } from 'vitest';
import { UrnError, decodeUrnPathSegment, makeUrn, parseRestliList, parseUrn, restliArrayParameter } from '../src/index';

describe('parseUrn', () => {
  it.each([
    ['urn:li:tag:pii', 'tag', ['pii']],
    ['urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)', 'dataset', ['urn:li:dataPlatform:hive', 'db.orders', 'PROD']],
    [
      'urn:li:dataJob:(urn:li:dataFlow:(airflow,daily_etl,prod),load_orders)',
      'dataJob',
      ['urn:li:dataFlow:(airflow,daily_etl,prod)', 'load_orders'],
    ],
    ['urn:li:corpuser:jdoe@example.com', 'corpuser', ['jdoe@example.com']],
    ['urn:li:dashboard:(looker,dashboards.11)', 'dashboard', ['looker', 'dashboards.11']],
    ['urn:li:tag:\u{1F600}', 'tag', ['\u{1F600}']],
  ])('%s is a %s with its tuple parts, nested URNs whole', (text, entityType, parts) => {
    expect(parseUrn(text)).toEqual({ text, entityType, parts });
    expect(makeUrn(entityType, parts)).toBe(text);
  });

  it.each([
    [' urn:li:tag:pii', 'Error: cannot provide an URN with leading or trailing whitespace'],
    ['urn:li:tag:pii\n', 'Error: cannot provide an URN with leading or trailing whitespace'],
    [`urn:li:tag:${'x'.repeat(500)}`, 'Error: cannot provide an URN longer than 512 bytes (when URL encoded)'],
    [`urn:li:tag:${'é'.repeat(90)}`, 'Error: cannot provide an URN longer than 512 bytes (when URL encoded)'],
    ['urn:li:tag:a\u241Fb', 'Error: URN cannot contain \u241F character'],
    ['urn:li:tag:', "Invalid urn: urn:li:tag:\n Cause: URN must start with 'urn:li:<entityType>:' and have a key"],
    ['dataset:orders', "Invalid urn: dataset:orders\n Cause: URN must start with 'urn:li:<entityType>:' and have a key"],
    [
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD',
      "Invalid urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD\n Cause: a tuple key must end with ')'",
    ],
    [
      'urn:li:dataset:(urn:li:dataPlatform:(hive,db.t,PROD)',
      'Invalid urn: urn:li:dataset:(urn:li:dataPlatform:(hive,db.t,PROD)\n Cause: unbalanced parentheses in the tuple key',
    ],
    ['urn:li:dataset:(hive,,PROD)', 'Invalid urn: urn:li:dataset:(hive,,PROD)\n Cause: tuple part 2 is empty'],
    ['urn:li:tag:a)b', 'Invalid urn: urn:li:tag:a)b\n Cause: unbalanced parentheses in the key'],
    ['urn:li:tag:a\uD800b', 'Invalid urn: urn:li:tag:a\uD800b\n Cause: the URN holds a lone surrogate (not valid Unicode)'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => parseUrn(text)).toThrow(new UrnError(message));
  });

  it('answers a urn met again with the same parts, immutable, and refuses a bad one every time it is asked', () => {
    const text = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.again,PROD)';
    const first = parseUrn(text);
    expect(parseUrn(text)).toEqual({ text, entityType: 'dataset', parts: ['urn:li:dataPlatform:hive', 'db.again', 'PROD'] });
    // Callers share what the parse kept: none of them can change it for the others.
    expect(() => (first.parts as string[]).push('x')).toThrow(TypeError);
    expect(() => Object.assign(first, { entityType: 'tag' })).toThrow(TypeError);
    expect(parseUrn(text).parts).toEqual(['urn:li:dataPlatform:hive', 'db.again', 'PROD']);
    for (let i = 0; i < 2; i++) expect(() => parseUrn('urn:li:tag:a)b')).toThrow(UrnError);
    // More distinct urns than are kept: each still parses to its own parts.
    for (let i = 0; i < 10_000; i++) expect(parseUrn(`urn:li:tag:t${i}`).parts[0]).toBe(`t${i}`);
    expect(parseUrn(text).parts[1]).toBe('db.again');
  });
});

describe('URNs in paths and Rest.li lists', () => {
  it('decodes a percent-encoded URN once, and passes an unencoded one through', () => {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
    expect(decodeUrnPathSegment(encodeURIComponent(urn))).toBe(urn);
    expect(decodeUrnPathSegment(urn)).toBe(urn);
    expect(decodeUrnPathSegment('urn:li:tag:100%')).toBe('urn:li:tag:100%');
  });

  it('splits List(...) on unencoded commas, then decodes each element', () => {
    const a = 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)';
    const b = 'urn:li:tag:pii';
    expect(parseRestliList(`List(${encodeURIComponent(a)},${encodeURIComponent(b)})`)).toEqual([a, b]);
    expect(parseRestliList('List(datasetProperties,globalTags)')).toEqual(['datasetProperties', 'globalTags']);
    expect(parseRestliList('List()')).toEqual([]);
    // Sent unencoded, a tuple URN keeps the commas inside its parentheses.
    expect(parseRestliList(`List(${a},urn:li:tag:pii)`)).toEqual([a, 'urn:li:tag:pii']);
    expect(() => parseRestliList('datasetProperties')).toThrow('Expected a Rest.li list like List(a,b), got: datasetProperties');
  });

  it('reads an array parameter in each Rest.li spelling: List(...), a bare value, repeated parameters, mixed', () => {
    const a = 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)';
    expect(restliArrayParameter('types=List(OwnedBy,DownstreamOf)&urn=x', 'types')).toEqual(['OwnedBy', 'DownstreamOf']);
    expect(restliArrayParameter('urn=x&types=OwnedBy', 'types')).toEqual(['OwnedBy']);
    expect(restliArrayParameter('types=OwnedBy&start=0&types=DownstreamOf', 'types')).toEqual(['OwnedBy', 'DownstreamOf']);
    expect(restliArrayParameter('types=List(OwnedBy)&types=DownstreamOf', 'types')).toEqual(['OwnedBy', 'DownstreamOf']);
    expect(restliArrayParameter('types=List()', 'types')).toEqual([]);
    // A bare tuple URN is one element, encoded or not; so is each repeated one.
    expect(restliArrayParameter(`ids=${a}`, 'ids')).toEqual([a]);
    expect(restliArrayParameter(`ids=${encodeURIComponent(a)}&ids=urn%3Ali%3Atag%3Apii`, 'ids')).toEqual([a, 'urn:li:tag:pii']);
    expect(restliArrayParameter('typesX=OwnedBy&xtypes=OwnedBy', 'types')).toBeUndefined();
    expect(() => restliArrayParameter('types=List(OwnedBy', 'types')).toThrow('Expected a Rest.li list like List(a,b), got: List(OwnedBy');
  });
});
