// Fixture cases for the valid choices CONVENTIONS.md allows: every check must pass on each of them.
import type { FixtureCase } from '../../src/testing/check-tester.js';

export const VALID_VARIANTS: FixtureCase[] = [
  { name: 'the example API as shipped' },
  { name: 'lists as a bare array', api: { variant: { listStyle: 'bare' } } },
  { name: 'lists in an {items} envelope', api: { variant: { listStyle: 'envelope-items' } } },
  { name: 'paged lists', api: { variant: { listStyle: 'paged' } } },
  { name: 'items wrapped in {data}', api: { variant: { itemStyle: 'envelope-data' } } },
  { name: 'DELETE answers 200 with the item', api: { variant: { deleteStatus: 200 } } },
  { name: 'a repeated DELETE answers 204', api: { variant: { repeatDeleteStatus: 204 } } },
  { name: 'problem+json errors', api: { variant: { errorStyle: 'problem' } } },
  { name: 'application/json without charset', api: { variant: { contentType: 'application/json' } } },
  { name: 'a vendor +json media type', api: { variant: { contentType: 'application/vnd.api+json' } } },
  { name: 'UUID ids everywhere', api: { variant: { widgetIds: 'uuid' } } },
  { name: 'absolute Location URLs', api: { variant: { locationStyle: 'absolute' } } },
  { name: 'unknown fields rejected with 400', api: { unknownFields: 'reject' } },
];
