// CheckTester cases for ERR-BODY: error answers carry JSON, in one shape across the API.
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { CheckTester, times } from '../../src/testing/check-tester.js';
import type { Middleware } from '../../src/example-api/index.js';
import type { ExchangeGroup } from '../../src/core/check.js';
import errorBodyShape, { shapeKey } from '../../suites/errors/error-body-shape.js';
import { VALID_VARIANTS } from './valid-variants.js';
import { sendJson } from './self-requests.js';

const tester = new CheckTester();

/**
 * Lets the API answer, then rewrites the body of every error answer: `shape` gets the status and
 * the API's error body and returns the new body (undefined: no body at all).
 */
function rewriteErrors(shape: (status: number, body: unknown) => unknown, contentType?: string): Middleware {
  return (_req, res) => {
    let status = 0;
    const writeHead = res.writeHead.bind(res) as (s: number, h?: Record<string, string>) => ServerResponse;
    const end = res.end.bind(res) as (chunk?: string) => ServerResponse;
    const patched = res as unknown as { writeHead: typeof writeHead; end: typeof end };
    patched.writeHead = (s, headers = {}) => {
      status = s;
      const { ['Content-Length']: _dropped, ...rest } = headers;
      return writeHead(s, status >= 400 && contentType ? { ...rest, 'Content-Type': contentType } : rest);
    };
    patched.end = (chunk) => {
      if (status < 400 || !chunk) return end(chunk);
      const body = shape(status, JSON.parse(chunk));
      return end(body === undefined ? '' : JSON.stringify(body));
    };
    return false;
  };
}

/** Answers GETs of collections that do not exist (the not-found check probes them) with `body`. */
function unknownRoutes(body: unknown): Middleware {
  return (req, res) => {
    if (!/nonexistent\d+/.test(req.url ?? '')) return false;
    sendJson(res, 404, body);
    return true;
  };
}

const problemVaried: Middleware = (req, res) => {
  if (!/nonexistent\d+/.test(req.url ?? '')) {
    // Validation problems carry an "errors" extension member; the rest are plain problems.
    return rewriteErrors((status, body) =>
      status === 400
        ? { ...(body as object), errors: [{ pointer: '/price', detail: 'must be a number' }] }
        : body,
    )(req, res, Buffer.alloc(0));
  }
  res.writeHead(404, { 'content-type': 'application/problem+json' });
  res.end(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, instance: req.url }));
  return true;
};

/** NestJS's default error bodies: `message` is a list for validation errors, a string otherwise. */
const nestStyle = rewriteErrors((status) => ({
  statusCode: status,
  message: status === 400 ? ['price must be a number'] : 'Not Found',
  error: status === 400 ? 'Bad Request' : 'Not Found',
}));

tester.run(errorBodyShape, {
  valid: [
    ...VALID_VARIANTS,
    {
      name: 'problem+json whose optional members vary (no detail on some, an errors list on others)',
      api: { variant: { errorStyle: 'problem' }, middleware: problemVaried },
    },
    { name: 'NestJS-style bodies whose message is a string or a list', api: { middleware: nestStyle } },
    {
      // The rule asks for the same top-level keys, whatever each holds.
      name: '"error" a string in some bodies and an object in others',
      api: { middleware: unknownRoutes({ error: 'Not Found' }) },
    },
    {
      name: 'FastAPI\'s "detail": a string on a 404, a list of problems on a 400',
      api: {
        middleware: rewriteErrors((status) =>
          status === 400
            ? {
                detail: [
                  { loc: ['body', 'price'], msg: 'value is not a valid float', type: 'type_error.float' },
                ],
              }
            : { detail: 'Not Found' },
        ),
      },
    },
    {
      // Rails' and Django REST framework's validation answers: the fields named differ, the shape does not.
      name: 'every error a map of field names to messages, naming different fields',
      api: {
        middleware: rewriteErrors((status) => ({ [status === 400 ? 'price' : 'id']: [`error ${status}`] })),
      },
    },
  ],
  invalid: [
    {
      name: 'HTML error pages',
      api: { breaks: { htmlErrors: true } },
      failures: [...times(76, 'errorBodyNotJson')],
    },
    {
      name: 'error answers with no body',
      api: { middleware: rewriteErrors(() => undefined) },
      failures: [...times(76, 'emptyErrorBody')],
    },
    {
      name: 'errors labelled text/plain',
      api: { middleware: rewriteErrors((_s, body) => body, 'text/plain') },
      failures: [...times(76, 'errorBodyNotJson')],
    },
    {
      name: "a gateway's own shape for unknown routes beside the application's",
      api: { middleware: unknownRoutes({ message: 'no Route matched with those values' }) },
      failures: [{ messageId: 'errorShapesDiffer' }],
    },
    {
      // Rails: {"status": 404, "error": "Not Found"} beside its validation maps.
      name: 'maps of field names to messages beside bodies of another shape',
      api: {
        middleware: rewriteErrors((status, body) => (status === 400 ? { price: ['is invalid'] } : body)),
      },
      failures: [{ messageId: 'errorShapesDiffer' }],
    },
  ],
});

describe('error-body-shape across the API', () => {
  const group = (body: unknown, count = 1, statuses = [400]): ExchangeGroup => ({
    key: shapeKey(body),
    count,
    statuses,
    resources: ['widgets'],
    evidence: [],
  });
  const summarise = (groups: ExchangeGroup[]) => errorBodyShape.summarise(groups);

  it('accepts one shape, and shapes that share a member of the same type', () => {
    expect(summarise([group({ error: { code: 'x', message: 'y' } })])).toEqual([]);
    expect(
      summarise([
        group({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'price', errors: [] }),
        group({ type: 'about:blank', title: 'Not Found', status: 404 }),
      ]),
    ).toEqual([]);
  });

  it('asks for a member in common, not for the same JSON type in it', () => {
    expect(summarise([group({ detail: 'Not Found' }, 2, [404]), group({ detail: [{ msg: 'x' }] })])).toEqual(
      [],
    );
  });

  it('flags shapes with no member in common, most frequent first', () => {
    const [finding] = summarise([
      group({ message: 'Unauthorized' }, 2, [401]),
      group({ error: { code: 'x', message: 'y' } }, 30, [400, 404]),
    ]);
    expect(finding.message).toBe(
      'error bodies come in 2 shapes with no top-level member in common: {error: object} in 30 responses (400, 404 on widgets); {message: string} in 2 responses (401 on widgets)',
    );
    expect(finding.resource).toBeUndefined();
  });

  it('treats a body that is not an object as a shape of its own', () => {
    const [finding] = summarise([group('Not Found'), group({ error: 'x' })]);
    expect(finding.message).toContain('a bare JSON string in 1 response');
  });

  it('keys a body by member names and JSON types, in a stable order', () => {
    expect(shapeKey({ status: 400, title: 'x', detail: null })).toBe(
      'detail:null,status:number,title:string',
    );
    expect(shapeKey([1])).toBe('(array)');
  });

  it('keys every map of field names to messages alike, but no error envelope', () => {
    expect(shapeKey({ price: ['must be a number'], name: ["can't be blank"] })).toBe('(field messages)');
    expect(shapeKey({ non_field_errors: ['bad pair'] })).toBe('(field messages)');
    expect(shapeKey({ errors: ['bad'] })).toBe('errors:array');
    expect(shapeKey({ detail: ['bad'] })).toBe('detail:array');
    expect(shapeKey({ price: 'must be a number' })).toBe('price:string');
    expect(shapeKey({ price: [] })).toBe('price:array');
    const [finding] = errorBodyShape.summarise([
      group({ price: ['is invalid'] }, 3),
      group({ status: 404, error: 'Not Found' }, 2, [404]),
    ]);
    expect(finding.message).toBe(
      'error bodies come in 2 shapes with no top-level member in common: a map of field names to messages ({"<field>": ["<message>"]}) in 3 responses (400 on widgets); {error: string, status: number} in 2 responses (404 on widgets)',
    );
  });
});
