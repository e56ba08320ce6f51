// Broken variants of the alternative API (methods, errors, idempotency, resources): the full audit names the broken rule.
import { DATA, testBrokenCases } from './broken-cases.js';

testBrokenCases(
  'full audit of the alternative API broken in methods, errors, idempotency or resources',
  DATA,
);
