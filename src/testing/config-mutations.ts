// Seeded mutations of a config for fuzz tests: truncation, wrong value types, stray punctuation.
import { stringify as stringifyYaml } from 'yaml';

/** mulberry32: a small deterministic PRNG (a seed gives the same cases on every machine). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every path to a value inside a parsed document (the root included, as []). */
export function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const out = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

/** Mutations drawn from one random stream, over one parsed document and its source text. */
export class ConfigMutator {
  private readonly all: Array<Array<string | number>>;

  constructor(
    readonly random: () => number,
    private readonly parsed: Record<string, unknown>,
    private readonly text: string,
  ) {
    this.all = paths(parsed).filter((p) => p.length > 0);
  }

  int(n: number): number {
    return Math.floor(this.random() * n);
  }

  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }

  /** The document cut at a random point, as YAML (its source) or as JSON. */
  truncated(): { json: boolean; text: string } {
    const json = this.random() < 0.5;
    const full = json ? JSON.stringify(this.parsed, null, 2) : this.text;
    return { json, text: full.slice(0, this.int(full.length)) };
  }

  /** One to three values replaced by values of other types, serialised as YAML or JSON. */
  wrongTypes(values: readonly unknown[], json: boolean): string {
    const copy = structuredClone(this.parsed);
    for (let n = 1 + this.int(3); n > 0; n--) {
      const path = this.pick(this.all);
      let parent: unknown = copy;
      for (const step of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)?.[step];
      if (parent !== null && typeof parent === 'object')
        (parent as Record<string | number, unknown>)[path[path.length - 1]] = structuredClone(
          this.pick(values),
        );
    }
    return json ? JSON.stringify(copy) : stringifyYaml(copy);
  }

  /** Stray characters put into the source text (`overwrite`: each also eats up to two characters). */
  garbage(characters: readonly string[], overwrite: boolean): string {
    let text = this.text;
    for (let n = 1 + this.int(8); n > 0; n--) {
      const at = this.int(text.length);
      text = text.slice(0, at) + this.pick(characters) + text.slice(overwrite ? at + this.int(3) : at);
    }
    return text;
  }
}
