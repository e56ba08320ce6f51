// Summarises a V8 .cpuprofile (from `npm run bench -- --profile`): self time by area and by function.
//
//   node bench/profile-summary.mjs bench/profiles/audit-50-<stamp>.cpuprofile [--top 25]
//     [--inclusive compileItemSchema,inspect,toExchange]   (time with the function anywhere on the stack)
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { top: { type: 'string', default: '25' }, inclusive: { type: 'string', default: '' } },
  allowPositionals: true,
});
if (positionals.length === 0) {
  process.stderr.write('usage: node bench/profile-summary.mjs <file.cpuprofile> [--top N]\n');
  process.exit(2);
}

/** Where a frame's code lives: a package, a folder of ours, node internals, or V8 (gc, idle...). */
function areaOf(url, name) {
  if (!url) return `(${name || 'anonymous'})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const ours = /\/dist\/((?:src\/[^/]+)|suites)/.exec(url);
  if (ours) return ours[1];
  if (url.startsWith('node:')) return url.replace(/\/.*$/, '').replace(/^node:internal.*/, 'node:internal');
  return url.replace(/^.*\//, '');
}

for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  // timeDeltas[i] is the time before samples[i]; attribute it to that sample's node.
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const areas = new Map();
  const functions = new Map();
  for (const [id, us] of selfUs) {
    const { callFrame: f } = byId.get(id);
    const area = areaOf(f.url, f.functionName);
    areas.set(area, (areas.get(area) ?? 0) + us);
    const key = `${f.functionName || '(anonymous)'} ${f.url ? `${f.url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${f.lineNumber + 1}` : ''}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  // Inclusive time: samples whose stack holds a frame of the named function (counted once each).
  const parentOf = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const wanted = values.inclusive.split(',').filter(Boolean);
  const inclusive = new Map(wanted.map((w) => [w, 0]));
  if (wanted.length > 0) {
    profile.samples.forEach((id, i) => {
      const names = new Set();
      for (let at = id; at !== undefined; at = parentOf.get(at))
        names.add(byId.get(at).callFrame.functionName);
      for (const w of wanted)
        if (names.has(w)) inclusive.set(w, inclusive.get(w) + (profile.timeDeltas[i] ?? 0));
    });
  }
  const top = Number(values.top);
  const show = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([k, us]) =>
          `${(us / 1000).toFixed(1).padStart(8)} ms ${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}`,
      )
      .join('\n');
  process.stdout.write(
    `${file}: ${(total / 1000).toFixed(0)} ms sampled\n\nself time by area:\n${show(areas)}\n\nself time by function:\n${show(functions)}\n\n` +
      (wanted.length > 0 ? `inclusive time (function on the stack):\n${show(inclusive)}\n\n` : ''),
  );
}
