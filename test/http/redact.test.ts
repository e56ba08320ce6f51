// The redactor: every spelling of a secret is hidden, ordinary text is left alone, short secrets are exact and warned about.
import { describe, expect, it } from '@jest/globals';
import { Redactor } from '../../src/http/redact.js';
import { echoSpellings, findLeaks } from '../safety/spellings.js';

const SECRET = 'tok-SECRET-full-123/Zq+K7w_X~42==';

describe('Redactor: every spelling of a secret', () => {
  const redactor = new Redactor([{ value: SECRET, envVar: 'TOK' }]);

  it.each(echoSpellings(SECRET))(
    '%s: hidden in text and in bodies, the text around it kept',
    (_, spelling) => {
      for (const out of [
        redactor.text(`before ${spelling} after`),
        redactor.body(`<p>before ${spelling} after</p>`, false),
      ]) {
        expect(findLeaks([['out', out]], [SECRET])).toEqual([]);
        expect(out).toContain('[redacted]');
        expect(out).toMatch(/before .*\[redacted\].* after/s);
      }
    },
  );

  it('hides a spelling inside JSON keys and values, as the evidence shows a parsed body', () => {
    for (const [, spelling] of echoSpellings(SECRET)) {
      const out = JSON.stringify(
        redactor.json(JSON.parse(redactor.body(JSON.stringify({ echo: spelling, [spelling]: 1 }), true))),
      );
      expect(findLeaks([['out', out]], [SECRET])).toEqual([]);
    }
  });

  it('leaves text without the secret exactly as it was', () => {
    const texts = [
      '{"id":7,"name":"bolt","tags":["metal","small"],"token":"tok-SECRET-other-999"}',
      '<!DOCTYPE html><p>Server error &amp; more &#8212; see the logs. Status: 500</p>',
      'dG9rLVNFQ1JFVA== 746f6b2d AAAA%2F%2B tok-SE CRET',
      'x'.repeat(5000),
    ];
    for (const text of texts) {
      expect(redactor.text(text)).toBe(text);
      expect(redactor.body(text, false)).toBe(text);
    }
  });

  it('hides runs of 12+ characters of a long secret in a body that did not parse, not in parsed values', () => {
    const html = `<p>ends with ${SECRET.slice(-14)}; begins with ${SECRET.slice(0, 12).toUpperCase()}; not ${SECRET.slice(3, 14)}</p>`;
    const out = redactor.body(html, false);
    expect(out).toBe(`<p>ends with [redacted]; begins with [redacted]; not ${SECRET.slice(3, 14)}</p>`);
    // A parsed JSON value is matched whole (a fragment there is ordinary data).
    expect(redactor.body(JSON.stringify({ a: SECRET.slice(0, 12) }), true)).toContain(SECRET.slice(0, 12));
    // A secret of 16 characters or fewer has no fragments: 12 of them would be most of it.
    const short = new Redactor([{ value: 'abcdefghijklmnop' }]);
    expect(short.body('xx abcdefghijkl xx', false)).toBe('xx abcdefghijkl xx');
  });

  it('hides secrets in header names and values, and keeps the credential scheme', () => {
    const headers = redactor.headers({
      [`X-${Buffer.from(SECRET).toString('hex')}`]: '1',
      [`x-${SECRET.slice(0, 18).toLowerCase().replace(/\W/g, '-')}`]: '2',
      'Set-Cookie': `a=${encodeURIComponent(SECRET)}; Path=/\nb=${Buffer.from(`u:${SECRET}`).toString('base64')}`,
      Authorization: `Bearer ${SECRET}`,
      Constructor: 'a name that is also an Object property',
    });
    expect(findLeaks([['headers', JSON.stringify(headers)]], [SECRET])).toEqual([]);
    expect(Object.keys(headers)).toEqual([
      'x-[redacted]',
      'x-[redacted] (2)',
      'set-cookie',
      'authorization',
      'constructor',
    ]);
    expect(headers.authorization).toBe('Bearer [redacted]');
    expect(headers['set-cookie']).toMatch(/^a=\[redacted\]; Path=\/\nb=/);
  });

  it('a body too long to show: the excerpt hides a secret across the cut and never shows part of it', () => {
    const body = `${'a'.repeat(8180)}${SECRET}${'b'.repeat(2_000_000)}`;
    const excerpt = redactor.excerpt(body, 8192);
    expect(excerpt).toBe(`${'a'.repeat(8180)}[redacted]`);
    expect(redactor.excerpt('a'.repeat(9000), 8192)).toBe('a'.repeat(8192));
  });

  it('ties a span to its secret only where it is the registered value (curl lines rebuild only those)', () => {
    const text = `Bearer ${SECRET} and ${SECRET.toUpperCase()}`;
    const spans = redactor.spans(text);
    expect(spans.map((s) => [text.slice(s.start, s.end), s.secret?.envVar])).toEqual([
      [SECRET, 'TOK'],
      [SECRET.toUpperCase(), undefined],
    ]);
  });

  it('a secret added later (e.g. a token obtained at run time) is hidden from then on, in every spelling', () => {
    const later = new Redactor([]);
    expect(later.text('login-token-0123456789')).toBe('login-token-0123456789');
    later.add({ value: 'login-token-0123456789', envVar: 'LOGIN' });
    expect(later.text('LOGIN-TOKEN-0123456789 and bG9naW4tdG9rZW4tMDEyMzQ1Njc4OQ==')).toBe(
      '[redacted] and [redacted]OQ==',
    );
  });
});

describe('Redactor: short secrets', () => {
  it('redacts a secret of any length exactly, and warns once that its echoes cannot be found', () => {
    const notes: string[] = [];
    const redactor = new Redactor([{ value: 'Q7', envVar: 'SHORT_TOKEN' }], { onNote: (n) => notes.push(n) });
    redactor.add({ value: 'Q7', envVar: 'SHORT_TOKEN' });
    // Derived from it (e.g. the token with a character changed): no second warning.
    redactor.add({ value: 'Q8', shell: '${SHORT_TOKEN%?}8' });
    expect(redactor.text('id=Q7;Q7Q7 q7')).toBe('id=[redacted];[redacted][redacted] q7');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^the secret from SHORT_TOKEN is only 2 characters long: .*unreliable/);
    expect(notes[0]).not.toContain('Q7');
    expect(redactor.notes).toEqual(notes);
  });

  it('a one-character secret is still never shown', () => {
    const redactor = new Redactor([{ value: '~' }]);
    expect(redactor.text('a~b~')).toBe('a[redacted]b[redacted]');
    expect(redactor.notes[0]).toMatch(/^a secret written in the config is only 1 character long/);
  });

  it('a secret of 8 characters or more gets no warning', () => {
    expect(new Redactor([{ value: '12345678' }]).notes).toEqual([]);
  });
});
