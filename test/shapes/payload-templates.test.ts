// Payload templates (issue 10, item 6): {{unique}} for fields under a uniqueness constraint, {{id}} for PUTs that carry the id.
import { describe, expect, it } from '@jest/globals';
import { hasTemplate, renderPayload, renderText } from '../../src/core/payloads.js';
import { shapesResources } from '../../src/testing/shapes-config.js';
import { auditShapes, bad, statuses } from './helpers.js';

describe('payload templates', () => {
  it('fill {{unique}} and {{id}} (a whole "{{id}}" keeps the id as given)', () => {
    const template = { id: '{{id}}', email: 'ann-{{unique}}@example.com', tags: ['x-{{id}}'] };
    expect(hasTemplate(template)).toBe(true);
    expect(renderPayload(template, { id: 7, unique: 'u1' })).toEqual({
      id: 7,
      email: 'ann-u1@example.com',
      tags: ['x-7'],
    });
    expect(renderText('{"id":"{{id}}"}', { id: 'a"b', unique: 'u' })).toBe('{"id":"a\\"b"}');
  });

  it.each([
    ['a unique email ({{unique}})', { uniqueEmail: true }],
    ['a PUT that must carry the id ({{id}})', { putNeedsId: true }],
    [
      'both, on a filter-addressed API',
      { addressing: 'filter' as const, putNeedsId: true, uniqueEmail: true },
    ],
  ])('%s: the full audit passes and leaves nothing', async (_, options) => {
    const { result, before, after } = await auditShapes(options);
    expect(bad(result).filter((b) => !b.startsWith('item-url-names-one'))).toEqual([]);
    expect(statuses(result, 'change-visible')).toEqual(['passed widgets']);
    expect(result.cleanup.leftovers).toEqual([]);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });

  it('without {{unique}}, a unique field makes the second create answer 409 (what the template is for)', async () => {
    const resources = shapesResources({ uniqueEmail: true }).replaceAll(
      'ann-{{unique}}@example.com',
      'ann@example.com',
    );
    const { result } = await auditShapes({ uniqueEmail: true }, { resources });
    expect(bad(result).join('\n')).toMatch(/409/);
  });

  it('without {{id}}, a PUT that must carry the id fails MTH-CHANGE (what the template is for)', async () => {
    const resources = shapesResources({ putNeedsId: true }).replace("id: '{{id}}', ", '');
    const { result } = await auditShapes({ putNeedsId: true }, { resources });
    expect(statuses(result, 'change-visible')).toEqual(['failed widgets']);
  });
});
