// `conformance run` against an https service with its own CA, a client-certificate service, --insecure, and a CONNECT proxy.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INSECURE_NOTE, INSECURE_START_NOTE } from '../../src/core/insecure.js';
import { packagePath } from '../../src/core/paths.js';
import { createExampleApi, type ExampleApi } from '../../src/example-api/server.js';
import { runCli } from '../../src/testing/cli-runner.js';
import { exampleEnv } from '../../src/testing/example-config.js';
import { makePki, startConnectProxy, startTlsFront, type Pki } from '../../src/testing/tls-fixture.js';

type Front = Awaited<ReturnType<typeof startTlsFront>>;

describe('TLS and proxies from the command line', () => {
  let pki: Pki;
  let api: ExampleApi;
  let apiPort: number;
  let selfSigned: Front;
  let privateCa: Front;
  let clientCert: Front;
  let dir: string;

  beforeAll(async () => {
    pki = makePki();
    api = createExampleApi();
    apiPort = Number(new URL((await api.listen(0)).origin).port);
    selfSigned = await startTlsFront(apiPort, { cert: pki.selfSignedCert, key: pki.selfSignedKey });
    privateCa = await startTlsFront(apiPort, { cert: pki.serverCert, key: pki.serverKey });
    clientCert = await startTlsFront(apiPort, { cert: pki.serverCert, key: pki.serverKey, clientCa: pki.ca });
    dir = await mkdtemp(join(tmpdir(), 'conf-tls-'));
  });
  afterAll(async () => {
    await Promise.all([selfSigned, privateCa, clientCert].map((f) => f.close()));
    await api.close();
    pki.remove();
  });

  /** A config in `dir` with this tls section (YAML lines), auditing widgets. */
  async function config(name: string, tls: string[]): Promise<string> {
    const file = join(dir, name);
    const text = [
      'auth:',
      '  token: ${CONFORMANCE_TOKEN}',
      ...(tls.length > 0 ? ['tls:', ...tls.map((l) => `  ${l}`)] : []),
      'resources:',
      '  - name: widgets',
      '    path: /widgets',
      '    sample: { name: bolt, price: 3 }',
      '',
    ].join('\n');
    await writeFile(file, text);
    return file;
  }

  async function run(port: number, cfg: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}) {
    const out = await mkdtemp(join(dir, 'out-'));
    const r = await runCli(
      [
        'run',
        '--base-url',
        `https://127.0.0.1:${port}/v1`,
        '--config',
        cfg,
        '--out',
        out,
        '--no-color',
        '--only',
        'MTH-READ',
        '--reporter',
        'console,json,junit,html,markdown',
        ...extra,
      ],
      { env: { ...exampleEnv(api), ...env } },
    );
    const file = (n: string) => readFile(join(out, n), 'utf8').catch(() => '');
    return {
      ...r,
      json: await file('conformance.json'),
      junit: await file('junit.xml'),
      html: await file('report.html'),
      md: await file('summary.md'),
    };
  }

  it('a self-signed certificate: exit 2 saying the certificate was refused and what to do, not "cannot reach"', async () => {
    const r = await run(selfSigned.port, await config('plain.yaml', []));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('TLS: certificate refused (self-signed certificate)');
    expect(r.stderr).toContain('tls.ca');
    expect(r.stderr).toContain('--insecure');
    expect(r.stderr).not.toContain('cannot reach');
  });

  it('tls.ca trusts the private CA: the audit runs', async () => {
    const r = await run(
      privateCa.port,
      await config('ca.yaml', ['ca: ca-copy.pem']).then(async (f) => {
        await writeFile(join(dir, 'ca-copy.pem'), pki.read(pki.ca));
        return f;
      }),
    );
    expect(r.stderr).not.toContain('TLS');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.json).summary.passed).toBeGreaterThan(0);
    expect(r.json).not.toContain(INSECURE_NOTE);
  });

  it('a client certificate: refused without it, the audit runs with tls.cert and tls.key', async () => {
    const without = await run(clientCert.port, await config('no-cert.yaml', [`ca: ${pki.ca}`]));
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('the service asks for a client certificate');
    const withCert = await run(
      clientCert.port,
      await config('cert.yaml', [`ca: ${pki.ca}`, `cert: ${pki.clientCert}`, `key: ${pki.clientKey}`]),
    );
    expect(withCert.code).toBe(0);
  });

  it('--insecure audits anyway and every report says so loudly', async () => {
    const r = await run(selfSigned.port, await config('plain2.yaml', []), ['--insecure']);
    expect(r.code).toBe(0);
    // Said before the run, so in the present tense; the reports, written after it, say "was".
    expect(r.stderr).toContain(
      'conformance: warning: TLS certificate verification is OFF (--insecure or tls.insecure in the config): the audit accepts any certificate, so nothing it reports will prove which server answered',
    );
    expect(r.stderr).toContain(`warning: ${INSECURE_START_NOTE}`);
    expect(r.stderr).not.toContain('was OFF');
    expect(r.stdout).toMatch(/TLS certificates NOT verified \(--insecure\)/);
    expect(JSON.parse(r.json).notes[0]).toBe(INSECURE_NOTE);
    expect(r.junit).toContain('name="tls-verification" value="OFF (--insecure)');
    expect(r.junit).toContain(`Warning: ${INSECURE_NOTE}`);
    expect(r.html).toContain('TLS certificate verification was OFF');
    expect(r.md).toContain(`⚠️ TLS certificate verification was OFF`);
    // tls.insecure in the config does the same.
    const fromConfig = await run(selfSigned.port, await config('insecure.yaml', ['insecure: true']));
    expect(fromConfig.code).toBe(0);
    expect(JSON.parse(fromConfig.json).notes).toContain(INSECURE_NOTE);
  });

  it('tls problems are config errors (exit 2) naming the key and its line', async () => {
    await writeFile(join(dir, 'not-pem.pem'), 'hello\n');
    const cases: Array<[string[], RegExp]> = [
      [
        ['ca: missing.pem'],
        /bad1\.yaml: tls\.ca: missing\.pem: cannot read the CA certificate file: no such file \(line 4\)/,
      ],
      [['ca: not-pem.pem'], /tls\.ca: not-pem\.pem: holds no PEM certificate/],
      [[`cert: ${pki.clientCert}`], /tls\.key: required with tls\.cert/],
      [
        [`cert: ${pki.clientCert}`, `key: ${pki.serverKey}`],
        /tls\.key: .*not the private key of the certificate in tls\.cert/,
      ],
      [[`cert: ${pki.clientCert}`, `key: ${pki.clientCert}`], /tls\.key: .*holds no PEM private key/],
      [['insecure: yes please'], /tls\.insecure/],
      [['verify: false'], /tls.*verify/],
    ];
    for (const [i, [lines, expected]] of cases.entries()) {
      const r = await run(privateCa.port, await config(`bad${i + 1}.yaml`, lines));
      expect([lines, r.code]).toEqual([lines, 2]);
      expect(r.stderr).toMatch(expected);
    }
  });

  it('HTTPS_PROXY tunnels the audit (TLS settings included); NO_PROXY=127.0.0.1 bypasses it', async () => {
    const proxy = await startConnectProxy();
    try {
      const cfg = await config('proxied.yaml', [`ca: ${pki.ca}`]);
      const target = `127.0.0.1:${privateCa.port}`;
      const r = await run(privateCa.port, cfg, [], { HTTPS_PROXY: proxy.url });
      expect(r.code).toBe(0);
      const tunnelled = proxy.tunnels.filter((t) => t === target).length;
      expect(tunnelled).toBeGreaterThan(0);
      expect(proxy.tunnels.every((t) => t === target)).toBe(true);
      const direct = await run(privateCa.port, cfg, [], { HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
      expect(direct.code).toBe(0);
      expect(proxy.tunnels.length).toBe(tunnelled);
    } finally {
      await proxy.close();
    }
  });

  it('a proxy that is down is named in the exit-2 message', async () => {
    const proxy = await startConnectProxy();
    const url = proxy.url;
    await proxy.close();
    const r = await run(privateCa.port, await config('down.yaml', [`ca: ${pki.ca}`]), [], {
      HTTPS_PROXY: url,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`through the proxy ${url} (HTTPS_PROXY)`);
  });

  it('the webhook receiver is never proxied: deliveries arrive with HTTP_PROXY set, the proxy sees only the API', async () => {
    const proxy = await startConnectProxy();
    const out = await mkdtemp(join(dir, 'hooks-'));
    try {
      const r = await runCli(
        [
          'run',
          '--base-url',
          `http://127.0.0.1:${apiPort}/v1`,
          '--config',
          packagePath('config', 'example.yaml'),
          '--out',
          out,
          '--only',
          'HOOK-DELIVERY',
          '--reporter',
          'json',
        ],
        { env: { ...exampleEnv(api), HTTP_PROXY: proxy.url } },
      );
      const report = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8')) as {
        results: Array<{ rules: string[]; status: string }>;
      };
      expect(r.code).toBe(0);
      const hooks = report.results.filter((x) => x.rules.includes('HOOK-DELIVERY'));
      expect(hooks.length).toBeGreaterThan(0);
      expect(hooks.every((x) => x.status === 'passed')).toBe(true);
      expect(proxy.tunnels.length).toBeGreaterThan(0);
      expect(new Set(proxy.tunnels)).toEqual(new Set([`127.0.0.1:${apiPort}`]));
    } finally {
      await proxy.close();
    }
  });
});
