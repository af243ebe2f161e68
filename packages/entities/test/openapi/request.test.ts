import { findEntity } from '@mds/core';
import { describe, expect, it } from 'vitest';
import { aspectNamed, aspectsAsked, batchItem, entityNamed, flag, integer, list, urnOf } from '../../src/openapi/request';

const dataset = findEntity('dataset')!;
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    const { status, message } = error as { status: number; message: string };
    return { status, message };
  }
  throw new Error('expected a refusal');
};

describe('request parameters', () => {
  it('entity names match any case; an unknown one is a 404 naming it', () => {
    expect(entityNamed('DATASET')).toBe(dataset);
    expect(refusal(() => entityNamed('nosuch'))).toEqual({ status: 404, message: 'Unknown entity: nosuch' });
  });

  it('urns: DataHub’s Invalid urn! 400 with the reason, and one of another entity type refused', () => {
    expect(urnOf(ORDERS, dataset)).toBe(ORDERS);
    expect(refusal(() => urnOf('nope', dataset))).toMatchObject({ status: 400, message: expect.stringMatching(/^Invalid urn! /) });
    // Found by the fuzzing: a lone surrogate used to escape as a URIError (500); @mds/core refuses it now.
    expect(refusal(() => urnOf('urn:li:dataset:\ud800', dataset))).toEqual({
      status: 400,
      message: 'Invalid urn! Invalid urn: urn:li:dataset:\ud800\n Cause: the URN holds a lone surrogate (not valid Unicode)',
    });
    expect(refusal(() => urnOf('urn:li:corpuser:jdoe', dataset))).toEqual({
      status: 400,
      message: 'Invalid urn! urn:li:corpuser:jdoe is not a dataset urn (its entity type is corpuser)',
    });
  });

  it('aspects match any case, answered by their registry name; one the entity lacks is a 400 naming it', () => {
    expect(aspectNamed(dataset, 'GLOBALTAGS')).toBe('globalTags');
    expect(aspectsAsked(dataset, ['globaltags', 'datasetKey'])).toEqual(['globalTags', 'datasetKey']);
    expect(refusal(() => aspectsAsked(dataset, ['corpUserInfo']))).toEqual({
      status: 400,
      message: 'Unknown aspect corpUserInfo for entity dataset',
    });
  });

  it('repeatable and comma lists, booleans and bounded integers, each refusal naming the parameter', () => {
    const query = new URLSearchParams('aspects=a,b&aspects=c&aspectNames=d&async=TRUE&count=5&bad=x');
    expect(list(query, 'aspects', 'aspectNames')).toEqual(['a', 'b', 'c', 'd']);
    expect(flag(query, 'async', false)).toBe(true);
    expect(flag(query, 'absent', true)).toBe(true);
    expect(refusal(() => flag(query, 'bad', false))).toEqual({ status: 400, message: "Parameter 'bad' must be true or false, got: x" });
    expect(integer(query, 'count', 10, 0, 100)).toBe(5);
    expect(refusal(() => integer(query, 'count', 10, 0, 4))).toEqual({
      status: 400,
      message: "Parameter 'count' must be an integer from 0 to 4, got: 5",
    });
  });

  it('a batch item needs its urn (DataHub: Missing `urn` field)', () => {
    expect(batchItem({ urn: ORDERS, status: {} }, 0, dataset)).toEqual({ urn: ORDERS, fields: { urn: ORDERS, status: {} } });
    expect(refusal(() => batchItem({ status: {} }, 0, dataset))).toEqual({ status: 400, message: 'Missing `urn` field' });
    expect(refusal(() => batchItem('x', 3, dataset))).toMatchObject({ status: 400, message: expect.stringContaining('Item 3') });
  });
});
