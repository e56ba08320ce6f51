// The HTML report in headless Chromium: what a reader sees, with and without JavaScript, and that nothing hostile runs.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { packagePath } from '../../src/core/paths.js';
import { renderHtml } from '../../src/reporters/html.js';
import { FAILED_CURL } from './fixture.js';
import { HOSTILE, hostileRun, PAYLOADS } from './hostile.js';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const test = available ? it : it.skip;
const note = available
  ? ''
  : ` (SKIPPED: ${CHROMIUM} not found; install Debian's package: apt-get install -y chromium)`;

/** The flags TOOLCHAIN.md lists, plus no network features of the browser itself. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--no-first-run',
  '--disable-quic',
  '--disable-component-update',
  '--disable-sync',
];

const TIMEOUT = 60_000;

/** What the tests read from the page's globals (this project compiles without the DOM types). */
interface BrowserGlobals {
  getComputedStyle(el: unknown): { backgroundColor: string };
  __pwned?: number;
  document: { documentElement: { scrollHeight: number } };
}

describe(`report.html in Chromium${note}`, () => {
  let browser: Browser;
  let dir: string;
  let url: string;

  beforeAll(async () => {
    if (!available) return;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    dir = mkdtempSync(join(tmpdir(), 'conf-html-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, renderHtml(hostileRun()));
    url = pathToFileURL(file).href;
  }, TIMEOUT);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Opens the report; collects dialogs, page errors and every request it makes. */
  async function open(javaScriptEnabled: boolean) {
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const seen = { dialogs: [] as string[], errors: [] as string[], requests: [] as string[] };
    page.on('dialog', (d) => {
      seen.dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('pageerror', (e) => seen.errors.push(e.message));
    page.on('request', (r) => seen.requests.push(r.url()));
    await page.goto(url);
    return { page, seen, close: () => context.close() };
  }

  const visibleRows = (page: Page) => page.locator('#results tbody tr:visible');

  test(
    'shows the summary, the matrix in colour, and each failure with request, response and curl',
    async () => {
      const { page, seen, close } = await open(true);
      try {
        await expect(page.locator('h1').textContent()).resolves.toBe('Conformance report');
        await expect(page.locator('.verdict').textContent()).resolves.toBe('3 checks failed and 1 warning');
        const count = (name: string) => page.locator(`#summary [data-count="${name}"] .n`).textContent();
        await expect(count('passed')).resolves.toBe('2');
        await expect(count('failed')).resolves.toBe('3');
        await expect(count('warning')).resolves.toBe('1');
        await expect(count('skipped')).resolves.toBe('3');
        await expect(count('errored')).resolves.toBe('1');
        await expect(count('waived')).resolves.toBe('1');

        // Matrix: rule rows, resource columns, cells coloured by outcome.
        const cell = (rule: string, col: string) =>
          page.locator(`#matrix tr[data-rule="${rule}"] td[data-col="${col}"]`);
        await expect(cell('AUTH-MISSING', 'r:widgets').innerText()).resolves.toBe('✗ failed');
        await expect(cell('GEN-JSON', 'r:widgets').innerText()).resolves.toBe('✓ passed');
        await expect(cell('MTH-READ', 'r:gadgets').innerText()).resolves.toBe('! errored');
        await expect(cell('RATE-LIMIT', 'api').innerText()).resolves.toBe('~ waived');
        await expect(cell('AUTH-FORBIDDEN', 'r:gadgets').innerText()).resolves.toBe('– skipped');
        const bg = (rule: string, col: string) =>
          cell(rule, col).evaluate(
            (el) => (globalThis as unknown as BrowserGlobals).getComputedStyle(el).backgroundColor,
          );
        await expect(bg('AUTH-MISSING', 'r:widgets')).resolves.toBe('rgb(255, 215, 213)');
        await expect(bg('GEN-JSON', 'r:widgets')).resolves.toBe('rgb(218, 251, 225)');
        await expect(bg('MTH-CREATE', 'r:widgets')).resolves.toBe('rgb(255, 241, 194)');
        await expect(bg('RATE-LIMIT', 'api')).resolves.toBe('rgb(216, 235, 255)');

        // A failure: message, the request and the response, and the curl line, as text.
        const failure = page.locator('#failures article', { hasText: 'auth-missing-token' });
        // Exchanges are folded, each named by its request line and status; a click opens one.
        const folded = failure.locator('details.exchange > summary');
        await expect(folded.allInnerTexts()).resolves.toEqual([
          'Exchange 1 of 2: DELETE https://api.example.com/v1/widgets/17?a=1&b=2 → 204',
          'Exchange 2 of 2: POST https://api.example.com/v1/widgets → 201',
        ]);
        await expect(failure.locator('pre.curl').first().isVisible()).resolves.toBe(false);
        await folded.first().click();
        const text = await failure.innerText();
        expect(text).toContain('DELETE /v1/widgets/17?a=1&b=2 answered "204" <expected 401> \\x1b[2J');
        expect(text).toContain(
          'DELETE https://api.example.com/v1/widgets/17?a=1&b=2\nauthorization: [redacted]',
        );
        expect(text).toContain('204 (3 ms)\ncontent-type: text/plain; charset=utf-8');
        await expect(failure.locator('pre.curl').first().innerText()).resolves.toBe(FAILED_CURL);
        // The matrix cell links to it.
        await cell('AUTH-MISSING', 'r:widgets').locator('a').click();
        expect(page.url()).toMatch(/#result-1$/);

        mkdirSync(packagePath('reports'), { recursive: true });
        await page.screenshot({ path: packagePath('reports', 'html-report.png'), fullPage: true });
        expect(seen.errors).toEqual([]);
      } finally {
        await close();
      }
    },
    TIMEOUT,
  );

  test(
    'shows hostile service text as text: no script runs, no element is injected, nothing is fetched',
    async () => {
      const { page, seen, close } = await open(true);
      try {
        const article = page.locator('#failures article', { hasText: 'no-server-errors' });
        const text = await article.innerText();
        for (const payload of PAYLOADS) expect(text).toContain(payload);
        expect(text).toContain(`POST answered 500: ${HOSTILE}`);
        await expect(
          page.evaluate(() => (globalThis as unknown as BrowserGlobals).__pwned),
        ).resolves.toBeUndefined();
        for (const tag of ['img', 'svg', 'iframe', 'base', 'link', 'b'])
          await expect(page.locator(tag).count()).resolves.toBe(0);
        await expect(page.locator('script').count()).resolves.toBe(1);
        await expect(page.locator('body').isVisible()).resolves.toBe(true);
        expect(seen.dialogs).toEqual([]);
        expect(seen.requests).toEqual([url]);
        expect(seen.errors).toEqual([]);
      } finally {
        await close();
      }
    },
    TIMEOUT,
  );

  test(
    'filters by status, rule and resource when JavaScript is on',
    async () => {
      const { page, close } = await open(true);
      try {
        await expect(page.locator('#filters').isVisible()).resolves.toBe(true);
        await expect(page.locator('#f-count').textContent()).resolves.toBe('11 of 11 results shown');

        await page.selectOption('#f-status', 'warning');
        await expect(visibleRows(page).allInnerTexts()).resolves.toEqual([
          expect.stringContaining('⚠ warning\tcreate-location'),
        ]);
        await page.selectOption('#f-status', 'failed');
        await expect(visibleRows(page).count()).resolves.toBe(3);
        await expect(page.locator('#f-count').textContent()).resolves.toBe('3 of 11 results shown');
        await expect(
          page.locator('#failures article', { hasText: 'create-location' }).isVisible(),
        ).resolves.toBe(false);
        await expect(page.locator('#failures article', { hasText: 'list-reads' }).isVisible()).resolves.toBe(
          false,
        );
        await expect(page.locator('#waived article').isVisible()).resolves.toBe(false);

        await page.selectOption('#f-status', '');
        await page.selectOption('#f-rule', 'AUTH-FORBIDDEN');
        await expect(visibleRows(page).allInnerTexts()).resolves.toEqual([
          expect.stringContaining('forbidden-writes\tAUTH-FORBIDDEN\twidgets'),
          expect.stringContaining('forbidden-writes\tAUTH-FORBIDDEN\tgadgets'),
        ]);
        await expect(page.locator('#matrix tbody tr:visible').count()).resolves.toBe(1);

        await page.selectOption('#f-resource', 'r:gadgets');
        await expect(visibleRows(page).count()).resolves.toBe(1);
        await expect(page.locator('#matrix thead th:visible').allInnerTexts()).resolves.toEqual([
          'Rule',
          'gadgets',
        ]);

        await page.selectOption('#f-rule', '');
        await page.selectOption('#f-resource', 'api');
        await expect(visibleRows(page).count()).resolves.toBe(2);
        await page.selectOption('#f-resource', 'r:<b>gizmos</b>');
        await expect(visibleRows(page).count()).resolves.toBe(1);
      } finally {
        await close();
      }
    },
    TIMEOUT,
  );

  test(
    'is complete without JavaScript: everything shown, no filter bar',
    async () => {
      const { page, seen, close } = await open(false);
      try {
        await expect(page.locator('#filters').isVisible()).resolves.toBe(false);
        await expect(visibleRows(page).count()).resolves.toBe(11);
        await expect(page.locator('#failures article:visible').count()).resolves.toBe(5);
        await expect(page.locator('#waived article:visible').count()).resolves.toBe(1);
        await expect(page.locator('#matrix tbody tr:visible').count()).resolves.toBe(11);
        // Exchanges are folded, and open without JavaScript (the native <details> element).
        const height = () =>
          page.evaluate(
            () => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollHeight,
          );
        const foldedHeight = await height();
        await expect(page.locator('pre.curl:visible').count()).resolves.toBe(0);
        const summaries = page.locator('details.exchange > summary');
        for (let i = 0; i < (await summaries.count()); i++) await summaries.nth(i).click();
        const curls = await page.locator('pre.curl:visible').count();
        expect(curls).toBeGreaterThanOrEqual(5);
        expect(await height()).toBeGreaterThan(foldedHeight);
        await expect(page.locator('#cleanup').innerText()).resolves.toContain(PAYLOADS[7]);
        expect(seen.requests).toEqual([url]);
      } finally {
        await close();
      }
    },
    TIMEOUT,
  );
});
