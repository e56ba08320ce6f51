// The few pure helpers of src/http and src/config that checks use, in one place: checks import
// src/core and suites/support only, so a change of those modules is made here.
export { advertisedWait } from '../../src/http/retry.js';
export { compileItemSchema } from '../../src/config/item-schema.js';
