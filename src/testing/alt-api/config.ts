// The hand-written config a user of the alternative API would write, as YAML, loaded like a real config file.
import type { AuditConfig } from '../../core/types.js';
import { parseConfigText } from '../../config/load.js';
import { PARENT, type AltServer } from './server.js';

/** The environment the config's ${VAR}s come from. */
export function altEnv(server: AltServer): NodeJS.ProcessEnv {
  return { ALT_API_TOKEN: server.tokens.full, ALT_API_READONLY_TOKEN: server.tokens.limited };
}

/** The YAML text of the config for this server (its switches decide a few lines). */
export function altConfigText(server: AltServer): string {
  const o = server.options;
  const jsonapi = o.format === 'jsonapi';
  // A payload as the API takes it: bare, or as a JSON:API document of the collection's type.
  const doc = (type: string, attributes: string): string =>
    jsonapi ? `{ data: { type: ${type}, attributes: ${attributes} } }` : attributes;
  // Only where unknown fields are refused is an unknown field an invalid payload.
  const unknownInvalid = (type: string, body: string): string =>
    o.unknownFields === 'reject' ? `\n      - ${doc(type, body)}` : '';
  const nested = o.managedFields === 'nested';
  const parent = o.nested ? PARENT : '';
  const noPut = o.settingsOps === 'no-put';
  const forbidden = o.limitedMay === 'read' ? '[create, replace, update, delete]' : '[delete]';
  const summary = o.listFields === 'summary';
  // Schema members, one per line, indented where they go.
  const lines = (members: string[], indent: number): string => members.join(`\n${' '.repeat(indent)}`);
  const managed = nested
    ? ['_meta: { type: object, required: [revisionNo], properties: { revisionNo: { type: integer } } }']
    : [
        'created_at: { type: string }',
        'updated_at: { type: string }',
        'version: { type: integer, minimum: 1 }',
        'etag: { type: string }',
      ];
  const managedMembers = nested ? '_meta' : 'created_at, updated_at, version, etag';
  const addressProps = [
    'street: { type: string, minLength: 1 }',
    'city: { type: string }',
    "zip: { type: string, pattern: '^[0-9]{5}$' }",
    'primary: { type: boolean }',
    'lines: { type: array, items: { type: string } }',
    ...managed,
  ];
  // The addresses schema: a bare item, or a JSON:API resource object around the same attributes.
  const addressSchema = jsonapi
    ? `type: object
      required: [type, id, attributes]
      properties:
        type: { const: addresses }
        id: { type: string, pattern: '^adr_[0-9a-z]{5}$' }
        links: { type: object }
        attributes:
          type: object
          required: [street, city, zip, ${managedMembers}]
          additionalProperties: false
          properties:
            ${lines(addressProps, 12)}`
    : `type: object
      required: ${summary ? '[id]' : `[id, street, city, zip, ${managedMembers}]`}
      additionalProperties: false
      properties:
        id: { type: string, pattern: '^adr_[0-9a-z]{5}$' }
        object: { const: address }
        ${lines([...addressProps, '_links: { type: object }', 'href: { type: string }'], 8)}`;
  // A service that shows decimals as strings and dates as timestamps is described so by its users.
  const updatesValues =
    o.values === 'decimal-strings'
      ? [
          "rollout: { type: string, pattern: '^[0-9]+[.][0-9]{2}$' }",
          'scheduled_for: { type: string, format: date-time }',
          'release_date: { type: string, format: date-time }',
        ]
      : [
          'rollout: { type: number, minimum: 0, maximum: 100 }',
          'scheduled_for: { type: string, format: date-time }',
          'release_date: { type: string, format: date }',
        ];
  const updatesRequired = summary
    ? '[id]'
    : jsonapi
      ? '[type, id, attributes]'
      : '[id, title, channel, success]';
  return `# Audits the alternative API (src/testing/alt-api): written by hand, as its users would.
baseUrl: ${server.baseUrl}
auth:
  token: \${ALT_API_TOKEN}
  limitedToken: \${ALT_API_READONLY_TOKEN}
idempotency:
  header: ${o.idempotencyHeader}
rateLimit:
  maxRequests: ${o.rateLimitPerSecond * 10}
  expected: true
${nested ? '# Server-managed members the audit cannot guess.\nignoreFields: [revisionNo, changedOn]\n' : ''}resources:
  - name: addresses
    path: ${parent}/addresses
    sample: ${doc('addresses', "{ street: '12 Rue Oberkampf', city: Paris, zip: '75011', primary: false, lines: ['Bat. A'] }")}
    replace: ${doc('addresses', "{ street: '14 Rue Oberkampf', city: Paris, zip: '75011', primary: true, lines: ['Bat. B', '2e etage'] }")}
    update: ${doc('addresses', "{ city: Saint-Étienne, zip: '42000' }")}
    invalid:
      - ${doc('addresses', "{ street: '12 Rue Oberkampf', city: Paris, zip: '7501' }")}
      - ${doc('addresses', "{ city: Paris, zip: '75011' }")}
      - ${doc('addresses', "{ street: '', city: Paris, zip: '75011' }")}
      - ${doc('addresses', "{ street: '12 Rue Oberkampf', city: Paris, zip: 75011 }")}${unknownInvalid('addresses', "{ street: '12 Rue Oberkampf', city: Paris, zip: '75011', colour: red }")}
    forbidden: ${forbidden}
    idempotencyKey: true
    schema:
      ${addressSchema}
  - name: updates
    path: ${parent}/updates
    operations: ${o.updatesOps === 'read-only' ? '[list, read]' : '[list, read, create, replace, update, delete]'}
    sample: ${doc('updates', "{ title: '2.6.0', channel: stable, success: false, notes: ['rolled back'], build: { number: 412, commit: a1b2c3d }, rollout: 12.5, scheduled_for: '2026-05-04T09:30:00Z', release_date: '2026-05-04' }")}
    replace: ${doc('updates', "{ title: '2.6.1', channel: beta, success: true, rollout: 100, scheduled_for: '2026-05-05T18:00:00.250+01:00' }")}
    update: ${doc('updates', "{ success: true, build: { number: 413 }, rollout: 0.75, release_date: '2026-05-06' }")}
    invalid:
      - ${doc('updates', "{ title: '2.6.0', channel: alpha, success: true }")}
      - ${doc('updates', "{ title: '2.6.0', channel: stable }")}
      - ${doc('updates', "{ title: '2.6.0', channel: stable, success: 'yes' }")}
      - ${doc('updates', '{ channel: stable, success: true }')}
      - ${doc('updates', "{ title: '2.6.0', channel: stable, success: true, rollout: 120 }")}
      - ${doc('updates', "{ title: '2.6.0', channel: stable, success: true, scheduled_for: 'next tuesday' }")}
    forbidden: ${forbidden}
    idempotencyKey: true
    schema:
      type: object
      required: ${updatesRequired}
      properties:
        id: { type: string, pattern: '^[0-9a-f]{24}$' }
        title: { type: string }
        channel: { enum: [stable, beta, nightly] }
        success: { type: boolean }
        notes: { type: array, items: { type: string } }
        build: { type: object }
        ${lines(updatesValues, 8)}
  - name: settings
    path: ${parent}/settings
    idField: ${jsonapi ? 'id' : 'uid'}
    sample: ${doc('settings', '{ name: ui.density, value: compact, scope: user, priority: 2 }')}
${noPut ? '    operations: [list, read, create, update, delete]' : `    replace: ${doc('settings', '{ name: ui.density, value: comfortable, scope: org }')}`}
    update: ${doc('settings', '{ value: cozy }')}
    invalid:
      - ${doc('settings', "{ name: 'Bad Name', value: x, scope: user }")}
      - ${doc('settings', '{ name: ui.x, value: x, scope: team }')}
      - ${doc('settings', '{ name: ui.x, value: x, scope: user, priority: -1 }')}
      - ${doc('settings', '{ name: ui.x, scope: user }')}${unknownInvalid('settings', '{ name: ui.x, value: x, scope: user, owner: me }')}
    forbidden: ${noPut && o.limitedMay === 'read' ? '[create, update, delete]' : forbidden}
`;
}

/** The config, parsed and validated exactly like a user's file. */
export function altConfig(server: AltServer): AuditConfig {
  return parseConfigText(altConfigText(server), { source: 'alt-api.yaml', env: altEnv(server) });
}
