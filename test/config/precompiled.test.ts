// The config validator the build precompiles (dist/config-schema.validator.cjs) finds what the schema compiled at run time finds.
import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { configAjv, PRECOMPILED, validateAgainstSchema } from '../../src/config/validate.js';
import { packagePath } from '../../src/core/paths.js';
import { ConfigMutator, prng } from '../../src/testing/config-mutations.js';

const EXAMPLE_TEXT = readFileSync(packagePath('config', 'example.yaml'), 'utf8');
const ODD_VALUES: unknown[] = [7, -1, 2.5, 'many', '', true, null, [], {}, ['x'], { x: 1 }];

describe('the precompiled config validator', () => {
  it('is what validates configs, and names the same problems as the schema compiled now, config by config', () => {
    // npm test builds dist/ first: the CLI's tests and these run the precompiled validator.
    expect(existsSync(PRECOMPILED)).toBe(true);
    const { ajv, schema } = configAjv();
    const fresh = ajv.compile(schema);
    const m = new ConfigMutator(prng(11), parseYaml(EXAMPLE_TEXT) as Record<string, unknown>, EXAMPLE_TEXT);
    let invalid = 0;
    for (let i = 0; i < 300; i++) {
      let data: unknown;
      try {
        data = parseYaml(m.wrongTypes(ODD_VALUES, i % 2 === 1));
      } catch {
        continue;
      }
      const problems = validateAgainstSchema(data);
      if (problems.length > 0) invalid++;
      expect({ case: i, problems }).toEqual({ case: i, problems: validateAgainstSchema(data, fresh) });
    }
    // Most mutations break the schema: the comparison covers its error paths, not only valid configs.
    expect(invalid).toBeGreaterThan(150);
  });
});
