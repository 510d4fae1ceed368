/**
 * `-o yaml` (src/io/yaml-text.ts): every JSON value comes back the same when a YAML reader reads
 * it, strings that look like something else included, and plain strings stay bare.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toYaml, yamlString } from '../../../src/io/yaml-text.js';

const TRICKY_STRINGS = [
  '', ' ', ' lead', 'trail ', 'true', 'False', 'yes', 'NO', 'on', 'Off', 'y', 'n', 'null', 'Null', '~', '0', '007', '1.5', '-3', '+1', '.5', '.inf', '-.Inf', '.NaN', '0x1F', '0o17', '1e3', '1_000',
  '2025-03-01', '2025-03-01T10:20:30Z', '12:30', 'a: b', 'a #b', '#c', '- item', '-', '?', ':', '[x]', '{y}', 'a,b', '"quoted"', "it's", '&anchor', '*alias', '!tag', '|', '>', '%', '@at', '`tick`',
  'two\nlines', 'tab\there', 'cr\rhere', 'nul\u0000', 'del\u007f', 'c1\u0085\u009f', 'sep\u2028\u2029', 'bom\ufeff', 'emoji 🔑', 'ünïcödé', 'back\\slash', '<<', '=', 'Not Used', 'a  b',
];

describe('toYaml', () => {
  it('writes every tricky string so that a YAML reader reads the same string back', () => {
    for (const text of TRICKY_STRINGS) {
      expect(parse(toYaml(text)), JSON.stringify(text)).toBe(text);
      expect(parse(toYaml({ [text]: text })), JSON.stringify(text)).toEqual({ [text]: text });
    }
  });

  it('round-trips nested lists and maps, empty ones, numbers, booleans and null', () => {
    const value = {
      keys: [
        { id: '1', key: 'AAAA-1111', note: null, level: '1', used: false },
        { id: '2', key: 'BBBB-2222', note: 'a "quoted", note', level: 2, used: true },
      ],
      empty: [],
      none: {},
      nested: [[1, [2, []]], [{}], [{ a: [{ b: { c: 'd' } }] }]],
      numbers: [0, -1.5, 1e21, 12345678901234],
      deep: { a: { b: { c: [] } } },
    };
    expect(parse(toYaml(value))).toEqual(value);
    expect(parse(toYaml([]))).toEqual([]);
    expect(parse(toYaml({}))).toEqual({});
    expect(parse(toYaml(null))).toBeNull();
  });

  it('leaves out what JSON leaves out, and writes what JSON cannot hold as null', () => {
    expect(parse(toYaml({ a: undefined, b: 1 }))).toEqual({ b: 1 });
    expect(parse(toYaml([Number.NaN, Number.POSITIVE_INFINITY]))).toEqual([null, null]);
  });

  it('keeps plain words bare and readable', () => {
    expect(toYaml([{ key: 'AAAA-1111', status: 'Not Used', genby: 'SellerAPI' }])).toBe('- key: AAAA-1111\n  status: Not Used\n  genby: SellerAPI\n');
    expect(yamlString('https://keyauth.win/api')).toBe('"https://keyauth.win/api"');
    expect(yamlString('/home/alice/kactl.yaml')).toBe('/home/alice/kactl.yaml');
  });
});
