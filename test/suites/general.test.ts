// CheckTester cases for GEN-JSON.
import { CheckTester, times } from '../../src/testing/check-tester.js';
import jsonResponses from '../../suites/general/json-responses.js';
import { VALID_VARIANTS } from './valid-variants.js';

const tester = new CheckTester();

tester.run(jsonResponses, {
  valid: VALID_VARIANTS,
  invalid: [
    {
      name: 'HTML error pages',
      api: { breaks: { htmlErrors: true } },
      failures: [...times(76, 'notJsonType')],
    },
    {
      name: 'JSON labelled text/plain',
      api: { breaks: { textJson: true } },
      failures: [...times(48, 'notJsonType')],
    },
    {
      name: 'invalid JSON labelled application/json',
      api: { breaks: { badJson: true } },
      failures: [{ messageId: 'bodyNotJson' }, { messageId: 'bodyNotJson' }, { messageId: 'bodyNotJson' }],
    },
    {
      name: 'a body that is not UTF-8',
      api: {
        middleware: (req, res) => {
          if (req.method !== 'GET' || !/\/v1\/orders$/.test(req.url ?? '')) return false;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
          return true;
        },
      },
      failures: [{ messageId: 'bodyNotJson' }],
    },
  ],
});
