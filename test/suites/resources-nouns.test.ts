// RES-NOUN's verb detection on real-world path names, both ways.
import { describe, expect, it } from '@jest/globals';
import { verbInSegment, verbShapedSegments, wordsOf } from '../../suites/resources/paths-are-nouns.js';

describe('verbInSegment', () => {
  const nouns = [
    // nouns that merely begin with verbs' letters (CONVENTIONS.md names the first four)
    'addresses', 'settings', 'documents', 'updates', 'listings', 'findings', 'searches', 'sets', 'lists',
    'deletions', 'additions', 'removals', 'getaways', 'makers', 'makes', 'models', 'domains', 'doors',
    'doctors', 'creators', 'creatives', 'editors', 'edits', 'changes', 'changelogs', 'fetchers', 'settlements',
    // plural nouns of verbs that are nouns too
    'downloads', 'uploads', 'exports', 'imports', 'runs', 'runners', 'checks', 'checkouts', 'checkpoints',
    'views', 'viewers', 'copies', 'shows', 'showcases', 'stops', 'starts', 'processes', 'processors',
    'queries', 'lookups', 'builds', 'deploys', 'invites', 'follows', 'followers', 'previews', 'estimates',
    // compounds that name a thing
    'search-results', 'searchResults', 'search_results', 'search-history', 'change-requests',
    'merge_requests', 'delete-requests', 'check-runs', 'check-suites', 'login-attempts', 'export-jobs',
    'read-receipts', 'read-replicas', 'load_balancers', 'refresh-tokens', 'deploy_keys', 'update-channels',
    'process-definitions', 'StopPoint', 'pay-periods', 'upload-urls', 'print-jobs', 'sync-status',
    // verb + plural particle, and known singular compounds
    'add-ons', 'addons', 'check-ins', 'sign-ups', 'follow-ups', 'drop-offs', 'pick-ups', 'write-offs',
    'add-on', 'check-in', 'setup', 'setups', 'signups',
    // ordinary collections from real APIs
    'widgets', 'orders', 'order-items', 'line_items', 'payment_intents', 'setup_intents', 'charges',
    'refunds', 'transfers', 'invoices', 'customers', 'subscriptions', 'webhooks', 'webhook_endpoints',
    'events', 'notifications', 'users', 'me', 'status', 'health', 'api', 'rate_limit', 'updated-widgets',
    'widgets.json', 'saved-searches', 'password-resets', 'todos',
    // versions, ids and parameters
    'v1', 'v2', 'v10', 'v1beta1', 'v2alpha', 'v2.1', '{id}', '{widgetId}', ':id', '<id>', '[id]', '42',
    '3f2504e0-4f89-11d3-9a0c-0305e82c3301', '507f1f77bcf86cd799439011',
  ]; // prettier-ignore
  it.each(nouns)('%s names a thing', (segment) => {
    expect(verbInSegment(segment)).toBeUndefined();
  });

  const verbs: Array<[string, string]> = [
    ['getWidgetById', 'get'], ['get-widgets', 'get'], ['get_widgets', 'get'], ['GetWidgets', 'get'],
    ['create-order', 'create'], ['createOrder', 'create'], ['create_order', 'create'], ['search', 'search'],
    ['_search', 'search'], ['list', 'list'], ['listWidgets', 'list'], ['add', 'add'], ['addWidget', 'add'],
    ['add-item', 'add'], ['remove-item', 'remove'], ['removeItem', 'remove'], ['set-price', 'set'],
    ['setPrice', 'set'], ['doPayment', 'do'], ['do-payment', 'do'], ['make-payment', 'make'],
    ['makePayment', 'make'], ['find', 'find'], ['findByName', 'find'], ['find-by-name', 'find'],
    ['fetchAll', 'fetch'], ['fetch-users', 'fetch'], ['update', 'update'], ['updateWidget', 'update'],
    ['update-widget', 'update'], ['delete', 'delete'], ['deleteWidget', 'delete'], ['delete-widget', 'delete'],
    ['reset-password', 'reset'], ['verifyEmail', 'verify'], ['sendEmail', 'send'],
    ['calculateTotal', 'calculate'], ['generate-report', 'generate'], ['export', 'export'],
    ['upload', 'upload'], ['login', 'login'], ['logout', 'logout'], ['subscribe', 'subscribe'],
    ['unsubscribe', 'unsubscribe'], ['process-payment', 'process'], ['runReport', 'run'], ['pay', 'pay'],
    ['confirm', 'confirm'], ['cancel', 'cancel'], ['capture', 'capture'], ['{id}:cancel', 'cancel'],
    ['widgets:search', 'search'], ['edit', 'edit'], ['merge', 'merge'], ['query', 'query'],
    ['lookup', 'lookup'], ['sync', 'sync'], ['check-availability', 'check'], ['change-password', 'change'],
    ['mark_uncollectible', 'mark'], ['SEARCH', 'search'], ['signin', 'signin'],
  ]; // prettier-ignore
  it.each(verbs)('%s starts with the verb %s', (segment, verb) => {
    expect(verbInSegment(segment)).toBe(verb);
  });
});

describe('verbShapedSegments', () => {
  it('judges every segment of a path and ignores the query string', () => {
    expect(verbShapedSegments('/v1/widgets/{id}/delete?force=true')).toEqual([
      { segment: 'delete', verb: 'delete' },
    ]);
    expect(verbShapedSegments('/api/v2/getWidgets/search')).toEqual([
      { segment: 'getWidgets', verb: 'get' },
      { segment: 'search', verb: 'search' },
    ]);
    expect(verbShapedSegments('/v1/users/42/addresses')).toEqual([]);
  });

  it('decodes percent-encoded segments', () => {
    expect(verbShapedSegments('/v1/get%20widgets')).toEqual([{ segment: 'get%20widgets', verb: 'get' }]);
  });
});

describe('wordsOf', () => {
  it('splits camelCase, PascalCase, acronyms, kebab-case and snake_case', () => {
    expect(wordsOf('getWidgetById')).toEqual(['get', 'widget', 'by', 'id']);
    expect(wordsOf('HTTPServerLogs')).toEqual(['http', 'server', 'logs']);
    expect(wordsOf('line_items-v2')).toEqual(['line', 'items', 'v2']);
  });
});
