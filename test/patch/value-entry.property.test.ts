import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DialectRuleName } from '../../src/patch/types.js';
import { defineAttribute as attr } from '../../src/schema/define-attribute.js';
import { defineSchema } from '../../src/schema/define-schema.js';
import { patchBody, setup, USER_SCHEMA, type Reply } from '../core/harness.js';

// Every way a value enters — POST, PUT, PATCH with a path, PATCH without one — must
// accept, refuse and coerce the same values, under the same IdP dialect switches.
const EXT = 'urn:example:params:scim:schemas:extension:values:2.0:User';
const sub = [
  attr('value', 'string'),
  attr('flag', 'boolean'),
  attr('at', 'dateTime'),
  attr('n', 'integer'),
  attr('type', 'string'),
  attr('primary', 'boolean'),
  attr('ratio', 'decimal'),
  // A multi-valued sub-attribute: a list inside a complex value, on every way in.
  attr('labels', 'string', { multiValued: true }),
];
const valuesSchema = defineSchema({
  id: EXT,
  name: 'Values',
  description: 'One attribute of every type',
  attributes: [
    attr('text', 'string'),
    attr('flag', 'boolean'),
    attr('count', 'integer'),
    attr('ratio', 'decimal'),
    attr('at', 'dateTime'),
    attr('link', 'reference', { referenceTypes: ['external'] }),
    attr('blob', 'binary'),
    attr('box', 'complex', { subAttributes: sub }),
    attr('noValueBox', 'complex', {
      subAttributes: [attr('flag', 'boolean'), attr('n', 'integer')],
    }),
    attr('tags', 'string', { multiValued: true }),
    attr('flags', 'boolean', { multiValued: true }),
    attr('times', 'dateTime', { multiValued: true }),
    attr('counts', 'integer', { multiValued: true }),
    attr('items', 'complex', { multiValued: true, subAttributes: sub }),
  ],
});
const NAMES = valuesSchema.attributes.map((a) => a.name);

const scalar = fc.constantFrom<unknown>(
  true,
  false,
  'True',
  'FALSE',
  'yes',
  0,
  7,
  1.5,
  -3,
  '',
  'x',
  'Admin',
  '2026-01-31T12:00:00Z',
  '2026-01-31T12:00:00+0200',
  '2026-01-31T12:00:00.1234+02:00',
  '2026-01-31T12:00',
  '2026-02-30T12:00:00Z',
  '2026-01-31T12:00:00+16:00',
  'https://example.org/a',
  '{"value":"Admin","displayName":"Admin"}',
  null,
);
const object = fc.dictionary(
  fc.constantFrom(
    'value',
    'VALUE',
    'flag',
    'at',
    'n',
    'type',
    'primary',
    'ratio',
    'labels',
    'unknown',
  ),
  scalar,
  { maxKeys: 3 },
);
const element = fc.oneof(scalar, object);
const value = fc.oneof(element, fc.array(element, { maxLength: 3 }));

// Each dialect form, tried on every attribute before the random runs.
const FORMS: unknown[] = [
  // An empty id (`managerEmptyString`): bare, in `value`, beside another sub-attribute.
  '',
  { value: '' },
  { value: '', flag: true },
  'True',
  ['false'],
  'Admin',
  ['Admin'],
  '{"value":"Admin","displayName":"Admin"}',
  [{ value: '{"value":"Admin","displayName":"Admin"}' }],
  { flag: 'TRUE', at: '2026-01-31T12:00:00+0200' },
  '2026-01-31T12:00:00+0200',
  ['2026-01-31T12:00'],
  null,
  [null, { value: 'x', primary: 'True' }],
  // One sub-attribute named twice: ambiguous, so refused on every way in.
  [{ VALUE: true, value: '' }],
  [{ value: null, VALUE: 'yes' }],
  { labels: ['a', 'b'], ratio: 1.5 },
  [
    { value: 'x', labels: 'a' },
    { value: 'y', labels: [null, 'b', 7] },
  ],
];
const EXAMPLES = NAMES.flatMap((name) => FORMS.map((form): [string, unknown] => [name, form]));

type Outcome = { refused: string | undefined } | { stored: unknown };

const SETTINGS: Array<Partial<Record<DialectRuleName, boolean>>> = [
  {},
  { stringBooleans: false, managerString: false, jsonEncodedValues: false },
  { stringBooleans: false },
  { managerString: false },
  { jsonEncodedValues: false },
  { managerEmptyString: false },
];

// No way in reads a value differently, the dialect rule `managerEmptyString` included: `""` or
// `{"value": ""}` for a singular complex attribute with a `value` (the Enterprise `manager`) is
// "no value" on all four with the rule on, and a value like any other with it off.
describe.each(SETTINGS)('every way a value enters agrees, with dialect rules %o', (rules) => {
  const api = setup({ extensions: [valuesSchema], patchRules: rules });
  let n = 0;
  const userName = () => `u${++n}@x.org`;
  const base = () => ({ schemas: [USER_SCHEMA, EXT], userName: userName() });

  const outcome = (reply: Reply, name: string): Outcome => {
    if (reply.status === 400) return { refused: reply.body.scimType as string | undefined };
    expect([200, 201], JSON.stringify(reply.body)).toContain(reply.status);
    return { stored: reply.body[EXT]?.[name] };
  };
  const fresh = async () => {
    const made = await api.request('POST', '/Users', { body: base() });
    return made.body.id as string;
  };

  async function entries(name: string, v: unknown): Promise<Record<string, Outcome>> {
    const post = await api.request('POST', '/Users', { body: { ...base(), [EXT]: { [name]: v } } });
    const putId = await fresh();
    const put = await api.request('PUT', `/Users/${putId}`, {
      body: { ...base(), [EXT]: { [name]: v } },
    });
    const withPath = await api.request('PATCH', `/Users/${await fresh()}`, {
      body: patchBody({ op: 'replace', path: `${EXT}:${name}`, value: v }),
    });
    const pathless = await api.request('PATCH', `/Users/${await fresh()}`, {
      body: patchBody({ op: 'replace', value: { [EXT]: { [name]: v } } }),
    });
    return {
      post: outcome(post, name),
      put: outcome(put, name),
      patchWithPath: outcome(withPath, name),
      patchWithoutPath: outcome(pathless, name),
    };
  }

  it('POST, PUT and PATCH (with and without a path) accept, refuse and coerce alike', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...NAMES), value, async (name, v) => {
        const seen = await entries(name, v);
        expect(seen.put, `PUT of ${name}`).toEqual(seen.post);
        expect(seen.patchWithPath, `PATCH ${name} with a path`).toEqual(seen.post);
        expect(seen.patchWithoutPath, `PATCH ${name} without a path`).toEqual(seen.post);
      }),
      { numRuns: 400, examples: EXAMPLES },
    );
  });
});
