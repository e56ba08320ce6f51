// Broken variants of the alternative API (authentication, protocol, limits, versions): the full audit names the broken rule.
import { AUTH_AND_PROTOCOL, testBrokenCases } from './broken-cases.js';

testBrokenCases(
  'full audit of the alternative API broken in authentication, protocol, limits or versions',
  AUTH_AND_PROTOCOL,
);
