// CheckTester cases for ERR-NOT-FOUND, ERR-SERVER and ERR-STATUS.
import { CheckTester, times } from '../../src/testing/check-tester.js';
import notFound404 from '../../suites/errors/not-found-404.js';
import noServerErrors from '../../suites/errors/no-server-errors.js';
import noErrorIn2xx from '../../suites/errors/no-error-in-2xx.js';
import { VALID_VARIANTS } from './valid-variants.js';

const tester = new CheckTester();

tester.run(notFound404, {
  valid: [
    ...VALID_VARIANTS,
    {
      name: 'DELETE of a never-issued id answers 204 (idempotent DELETE)',
      api: {
        middleware: (req, res) => {
          if (req.method !== 'DELETE') return false;
          res.writeHead(204).end();
          return true;
        },
      },
    },
  ],
  invalid: [
    {
      name: 'unknown id answers 200 {}',
      api: { breaks: { notFound200: true } },
      failures: [...times(6, 'unknownIdNot404')],
    },
    {
      name: 'unknown id answers 400',
      api: { breaks: { notFound400: true } },
      failures: [...times(8, 'unknownIdNot404')],
    },
    {
      name: 'unknown id answers 500',
      api: { breaks: { notFound500: true } },
      failures: [...times(8, 'unknownIdNot404')],
    },
    {
      name: 'unknown id answers 200 with an error body',
      api: { breaks: { errorIn200: true } },
      failures: [...times(6, 'unknownIdNot404')],
    },
    {
      name: 'an unknown collection answers 200',
      api: {
        middleware: (req, res) => {
          if (!/nonexistent\d+/.test(req.url ?? '')) return false;
          res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
          return true;
        },
      },
      failures: [{ messageId: 'unknownCollectionNot404' }, { messageId: 'unknownCollectionNot404' }],
    },
  ],
});

tester.run(noServerErrors, {
  valid: VALID_VARIANTS,
  invalid: [
    {
      name: 'every PATCH answers 500',
      api: { breaks: { serverError: true } },
      failures: [...times(6, 'serverError')],
    },
    {
      name: 'DELETE answers 500',
      api: { breaks: { deleteStatus500: true } },
      failures: [...times(4, 'serverError')],
    },
    {
      name: 'the connection is reset on reads of items',
      api: {
        middleware: (req) => {
          if (req.method !== 'GET' || !/\/v1\/widgets\/\d+$/.test(req.url ?? '')) return false;
          req.socket.destroy();
          return true;
        },
      },
      // One per item URL the audit read (each check's own items): forbidden-403 sends its writes
      // together and, its one state read cut short, makes no new item per write as it did one by one.
      failures: [...times(15, 'noCompleteAnswer')],
    },
  ],
});

tester.run(noErrorIn2xx, {
  valid: [
    ...VALID_VARIANTS,
    {
      name: 'an item whose own fields are called status and error',
      api: {
        middleware: (req, res) => {
          if (req.method !== 'GET' || !/\/v1\/widgets\/\d+$/.test(req.url ?? '')) return false;
          const id = Number(req.url?.split('/').pop());
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              id,
              name: 'bolt',
              price: 3,
              status: 'failed',
              error: 'last sync timed out',
              code: 500,
            }),
          );
          return true;
        },
      },
    },
    {
      // Found by the alternative API (test/independent): a rollout record that did not succeed.
      name: 'an item whose own fields are called success, ok and errors',
      api: {
        middleware: (req, res) => {
          if (req.method !== 'GET' || !/\/v1\/widgets\/\d+$/.test(req.url ?? '')) return false;
          const id = Number(req.url?.split('/').pop());
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({ id, name: 'bolt', price: 3, success: false, ok: false, errors: ['timeout'] }),
          );
          return true;
        },
      },
    },
  ],
  invalid: [
    {
      name: '200 with {"error": {...}}',
      api: { breaks: { errorIn200: true } },
      failures: [...times(18, 'errorIn2xx')],
    },
    {
      name: '200 with an error that echoes the id: {"id": 7, "success": false, "message": ...}',
      api: {
        middleware: (req, res) => {
          if (req.method !== 'GET' || !/\/v1\/orders$/.test(req.url ?? '')) return false;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"id":7,"success":false,"message":"no such order"}');
          return true;
        },
      },
      failures: [{ messageId: 'errorIn2xx' }],
    },
    {
      name: '200 with {"success": false}',
      api: { breaks: { successFalse: true } },
      failures: [...times(10, 'errorIn2xx')],
    },
    {
      name: '200 with {"status": "error", "code": 404}',
      api: {
        middleware: (req, res) => {
          if (req.method !== 'GET' || !/\/v1\/orders$/.test(req.url ?? '')) return false;
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"error","code":404}');
          return true;
        },
      },
      failures: [{ messageId: 'errorIn2xx' }],
    },
  ],
});
