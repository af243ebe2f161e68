import { describe, expect, it } from 'vitest';
import { JsonNestingError, jsonTextDeeperThan, nestedDeeperThan, parseJsonWithin } from '../src/json-depth';

const arrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
const objects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

describe('jsonTextDeeperThan', () => {
  it('counts arrays and objects inside one another, as nestedDeeperThan counts the parsed value', () => {
    for (const text of [arrays(3), objects(3), '[{"a":[1]}]', '{"a":[{"b":{}}],"c":[[2]]}', '1', '"x"', '[]']) {
      for (const max of [0, 1, 2, 3, 4])
        expect([text, max, jsonTextDeeperThan(text, max)]).toEqual([text, max, nestedDeeperThan(JSON.parse(text), max)]);
    }
  });

  it('judges siblings by their own depth, not the sum', () => {
    expect(jsonTextDeeperThan(`[${Array.from({ length: 500 }, () => '[1]').join(',')}]`, 2)).toBe(false);
  });

  it('skips brackets inside strings, escaped quotes and backslashes included', () => {
    expect(jsonTextDeeperThan(JSON.stringify({ a: '[[[[{{{{' }), 1)).toBe(false);
    expect(jsonTextDeeperThan(JSON.stringify({ a: 'say \\"[[[[' }), 1)).toBe(false);
    expect(jsonTextDeeperThan(JSON.stringify({ a: '\\', b: [[1]] }), 2)).toBe(true);
    expect(jsonTextDeeperThan(JSON.stringify({ a: '\\"', b: [1] }), 2)).toBe(false);
    expect(jsonTextDeeperThan(JSON.stringify([arrays(200)]), 1)).toBe(false);
  });

  it('reads a million levels without recursion', () => {
    expect(jsonTextDeeperThan(arrays(1_000_000), 100)).toBe(true);
    expect(jsonTextDeeperThan(objects(100), 100)).toBe(false);
    expect(jsonTextDeeperThan(objects(101), 100)).toBe(true);
  });

  it('ends on text that is not JSON without looping', () => {
    for (const text of ['"unterminated [[[', '[[[', ']]]]', '"\\', '']) expect(typeof jsonTextDeeperThan(text, 1)).toBe('boolean');
  });
});

describe('parseJsonWithin', () => {
  it('parses JSON nested up to the limit', () => {
    expect(parseJsonWithin('{"a":[1,{"b":null}]}', 3)).toEqual({ a: [1, { b: null }] });
  });

  it('refuses deeper JSON before parsing it, in words that follow a parameter name', () => {
    const refuse = () => parseJsonWithin(arrays(8_000_000));
    expect(refuse).toThrow(JsonNestingError);
    expect(refuse).toThrow('is nested more than 100 levels deep');
  });

  it('leaves invalid JSON to JSON.parse', () => {
    expect(() => parseJsonWithin('{"a":')).toThrow(SyntaxError);
  });
});
