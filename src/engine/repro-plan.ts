// The plan of one reproduction script: the items it creates again, the exchanges it replays, the rule's test, its cleanup.
import { itemTemplate, itemUrl } from '../core/addressing.js';
import { named } from '../core/named.js';
import { jqPath, type ReproCheck } from '../core/reproduce.js';
import type { ResourceConfig } from '../core/types.js';
import { curlArgs, shellWord, type CurlInput, type CurlOptions, type Substitute } from '../http/curl.js';
import { sentRequest } from '../http/evidence.js';
import type { Creation, NamedAt } from './creations.js';
import { burstLines } from './repro-burst.js';
import { firstPage, followLines, listSteps, locationOf, pagesFunctions } from './repro-follow.js';
import { scriptHeader } from './repro-header.js';
import { stateStep, type Remembered } from './repro-state.js';
import { hookSetupLines, hookVerdictLines } from './repro-hooks.js';
import { bodySubstitute, startsWithin, urlSubstitute } from './repro-vars.js';
import {
  captureId,
  LISTED_IDS,
  primedFunction,
  prologue,
  SENT_WORD,
  sq,
  verdictLines,
  type StepRef,
} from './repro-shell.js';
import type { ReproDeps, ReproFailure } from './reproduce.js';

/** Stands for an id in a request rendered for the cleanup function (replaced by `$1`). */
const ID_HOLE = 'conformance0id0hole';

/** Builds one script: variables for the ids of created items, setup creates, steps, verdict, cleanup. */
export class Plan {
  private readonly base: string;
  private readonly origin: string;
  /** Item path -> the shell variable of its id. */
  private readonly vars = new Map<string, { name: string; id: string; creation: Creation }>();
  /** Resources whose items the script may delete (a `delete_<n>` function each). */
  private readonly deleters = new Map<string, number>();
  private readonly lines: string[] = [];
  /** Whether the script reads a collection page by page (it then defines `pages`). */
  private paging = false;
  /** Whether the script sends a request on a connection a token was sent on (it then defines `send_primed`). */
  private priming = false;

  constructor(
    private readonly deps: ReproDeps,
    private readonly failure: ReproFailure,
    private readonly check: ReproCheck,
  ) {
    this.base = deps.client.baseUrl;
    this.origin = new URL(this.base).origin;
  }

  script(sent: Array<{ input: CurlInput; options: CurlOptions }>): string {
    const { evidence } = this.failure;
    const creations = this.deps.custody.creations;
    // Which created items the steps name, and which of them the steps create themselves.
    const madeHere = new Set<string>();
    const needed: Creation[] = [];
    // The item each step created (its POST's answer named it), if any.
    const made = sent.map((_, i) => creations.made(evidence[i]));
    sent.forEach(({ input }, i) => {
      if (made[i]) madeHere.add(made[i].path);
      const named = this.createdItemOf(input.url);
      if (named && !madeHere.has(named.path) && !needed.includes(named)) needed.push(named);
    });
    const steps: StepRef[] = [];
    const body: string[] = [];
    needed.sort((a, b) => a.seq - b.seq);
    if (this.check.kind === 'webhook') body.push(...hookSetupLines(this.deps, this.check));
    needed.forEach((creation, j) => {
      const from = sentRequest(creation.evidence);
      if (!from) return;
      const name = `s${j}`;
      const v = this.variable(creation);
      body.push(`# Setup: create the ${creation.resource} item the failure needs, as the audit did.`);
      body.push(this.sendLine(name, `POST ${this.pathLabel(creation.evidence.request.url)} (setup)`, from));
      body.push(...this.capture(name, v, creation.resource, creation.namedAt, true));
    });
    if (this.check.kind === 'burst') {
      const s = sent[this.check.at ?? sent.length - 1];
      const ref = this.ref(evidence.length - 1);
      body.push(...burstLines(this.check, ref, this.argsOf(s.input, s.options)));
    } else if (this.check.kind !== 'base-url') {
      body.push('# The exchanges of the failure, as the audit sent them.');
      // A collection the verdict looks in is read whole, every page, as the audit reads it.
      const paged = new Set(listSteps(this.check));
      sent.forEach((s, i) => {
        const ref = this.ref(i);
        // A request to the URL an earlier answer's Location named goes where the replayed answer's Location says.
        const from = evidence.slice(0, i).findIndex((e) => locationOf(e) === s.input.url);
        if (from >= 0) {
          const origin = this.ref(from);
          const loc = `loc_${origin.name}`;
          ref.label = `${s.input.method} (the Location ${origin.label} answered)`;
          body.push(...followLines(loc, origin.name));
          body.push(
            `send ${ref.name} ${sq(ref.label)} ${this.argsOf(s.input, s.options, `\${${loc}}`).join(' ')}`,
          );
        } else if (this.repeatsDelete(i, s.input)) {
          // A DELETE that failed on an item the audit had deleted before: that earlier DELETE first.
          body.push(this.sendLine(`${ref.name}first`, `${ref.label} (as the audit did before)`, s));
          body.push(this.stepLine(ref, s));
        } else if (paged.has(i) && s.input.method === 'GET' && ref.list) {
          ref.label = `GET ${this.pathLabel(firstPage(s.input.url))} (every page)`;
          body.push(this.pagesLine(ref.name, ref.label, s.input, s.options));
        } else {
          const list = made[i] ? undefined : this.listBeforePost(s.input);
          if (list)
            body.push(this.pagesLine(`${ref.name}before`, `${list.label} (before the POST)`, list.input));
          body.push(
            this.check.kind === 'remembered' ? this.stateLine(ref, s, i, sent[0]) : this.stepLine(ref, s),
          );
        }
        const created = made[i];
        const compared = this.check.kind === 'ids-differ' && this.check.at.includes(i);
        if (compared && !created) body.push(...this.readId(ref, s.input));
        else if (created) {
          ref.idVar = this.variable(created);
          body.push(...this.capture(ref.name, ref.idVar, created.resource, created.namedAt, false));
        } else body.push(...this.sideEffects(ref.name, s.input));
        steps.push(ref);
      });
      body.push('# What the rule checks.');
      const check =
        this.check.kind === 'new-items'
          ? { ...this.check, delete: String(this.deleter(this.check.delete) ?? 'none') }
          : this.check;
      const sentWord =
        this.check.kind === 'shows'
          ? shellWord(JSON.stringify(this.check.sent), this.deps.client.redactor, this.bodyVars())
          : '';
      if (check.kind === 'webhook') body.push(...hookVerdictLines(this.deps.config, check, steps[0]));
      else body.push(...verdictLines(check, steps).map((l) => l.split(SENT_WORD).join(sentWord)));
    } else body.push(...verdictLines(this.check, steps));
    const pageLines = [...(this.paging ? pagesFunctions() : []), ...(this.priming ? primedFunction() : [])];
    const deletes = this.deleteFunctions();
    const header = scriptHeader(
      this.failure,
      this.base,
      this.deps.config.secrets,
      [...pageLines, ...body, ...deletes],
      this.deps.invocation?.baseUrlNote,
    );
    return [...header, ...prologue(), ...pageLines, ...deletes, ...body, ''].join('\n');
  }

  /**
   * Whether step `i` is a DELETE the service failed (not 2xx) of an item the audit created and
   * deleted with another, successful DELETE that the failure's evidence does not hold: a repeat
   * (had it come first, the replayed earlier DELETE meets the failure no more than a correct
   * service would, so the script never reproduces what the audit did not see).
   */
  private repeatsDelete(i: number, input: CurlInput): boolean {
    const e = this.failure.evidence[i];
    if (input.method !== 'DELETE' || !e.response || (e.response.status >= 200 && e.response.status < 300)) {
      return false;
    }
    const created = this.createdItemOf(input.url);
    if (!created || !this.deps.custody.deletedByAudit(created.path)) return false;
    return !this.failure.evidence
      .slice(0, i)
      .some((x) => x.request.method === 'DELETE' && x.request.url === e.request.url);
  }

  /** One `send` line: the request as the audit sent it, ids of created items and the base URL as variables. */
  private sendLine(name: string, label: string, s: { input: CurlInput; options: CurlOptions }): string {
    return `send ${name} ${sq(label)} ${this.argsOf(s.input, s.options).join(' ')}`;
  }

  /** The curl words of a request (`url`: a shell expression that stands for its whole URL). */
  private argsOf(input: CurlInput, options: CurlOptions, url?: string): string[] {
    return curlArgs(input, this.deps.client.redactor, options, {
      url: url === undefined ? this.urlVars() : (text) => [{ start: 0, end: text.length, shell: url }],
      body: this.bodyVars(),
    });
  }

  /** The base URL (or origin) and the ids of created items in a URL, as variables. */
  private urlVars(): Substitute {
    return urlSubstitute(this.base, this.origin, [...this.vars.values()]);
  }

  /** Ids of created items as JSON strings in a body, as variables. */
  private bodyVars(): Substitute {
    return bodySubstitute([...this.vars.values()]);
  }

  /** The item the audit created that a URL names, if it names one. */
  private createdItemOf(url: string): Creation | undefined {
    const target = this.deps.custody.targetOf(url);
    if (!target || target.id === undefined) return undefined;
    const path = itemUrl(target.r, target.id);
    if (path === undefined || encodeURIComponent(target.id) !== target.id) return undefined;
    return this.deps.custody.creations.of(path);
  }

  private variable(creation: Creation): string {
    const known = this.vars.get(creation.path);
    if (known) return known.name;
    const name = `id${this.vars.size + 1}`;
    this.vars.set(creation.path, { name, id: creation.id, creation });
    return name;
  }

  /** Reads the id a create answered into its variable and puts the item on the cleanup list. */
  private capture(step: string, v: string, resource: string, at: NamedAt, setup: boolean): string[] {
    const fn = this.deleter(resource);
    const read = readAt(step, at);
    const lines = [`${v}=${read}`];
    if (setup) {
      lines.push(
        `[ -n "$${v}" ] || { echo "could not set up: POST answered $(status ${step}) naming no ${resource} item"; exit 2; }`,
      );
    }
    if (fn !== undefined) lines.push(`[ -z "$${v}" ] || cleanup+=("${fn}:$${v}")`);
    return lines;
  }

  /** The id a create the audit did not adopt (a retry naming another item) answered, read all the same. */
  private readId(ref: StepRef, input: CurlInput): string[] {
    ref.idVar = `${ref.name}id`;
    const r = this.deps.custody.targetOf(input.url)?.r;
    const at = (r && this.deps.custody.creations.namedAt(r.name)) ?? { body: [r?.idField ?? 'id'] };
    const read = readAt(ref.name, at);
    const fn = r ? this.deleter(r.name) : undefined;
    return [
      `${ref.idVar}=${read}`,
      ...(fn !== undefined ? [`[ -z "$${ref.idVar}" ] || cleanup+=("${fn}:$${ref.idVar}")`] : []),
    ];
  }

  /** What a replayed request may have created against a service that should have refused it: deleted at the end. */
  private sideEffects(step: string, input: CurlInput): string[] {
    const target = this.deps.custody.targetOf(input.url);
    if (!target) return [];
    const fn = this.deleter(target.r.name);
    if (fn === undefined) return [];
    if (input.method === 'POST' && target.id === undefined) {
      const at = this.deps.custody.creations.namedAt(target.r.name) ?? { body: [target.r.idField] };
      const read = readAt(step, at, true);
      const list = this.listBeforePost(input);
      // A batch create (an array) names several items: each goes on the cleanup list.
      if (!list)
        return [
          `case "$(status ${step})" in 2*) for made in ${read}; do cleanup+=("${fn}:$made"); done ;; esac`,
        ];
      // An answer that names no item (a batch's count): what the collection lists anew is deleted.
      // The ids the answer names are read once (one jq), for the cleanup list and for that test.
      const ids = (name: string): string =>
        `jq -r --arg f ${sq(target.r.idField)} ${LISTED_IDS} "$tmp/${name}.body" 2>/dev/null >"$tmp/${name}.ids"`;
      const made = `${step}made`;
      return [
        `case "$(status ${step})" in 2*)`,
        `  ${made}=${read}`,
        `  for made in $${made}; do cleanup+=("${fn}:$made"); done`,
        `  [ -n "$${made}" ] || {`,
        `    ${this.pagesLine(`${step}after`, `${list.label} (after the POST)`, list.input)}`,
        `    ${ids(`${step}before`)}`,
        `    ${ids(`${step}after`)}`,
        `    while read -r made; do cleanup+=("${fn}:$made"); done < <(grep -vxF -f "$tmp/${step}before.ids" "$tmp/${step}after.ids")`,
        '  } ;;',
        'esac',
      ];
    }
    if (input.method === 'PUT' && target.id !== undefined && !this.createdItemOf(input.url)) {
      return [`[ "$(status ${step})" != 201 ] || cleanup+=("${fn}:"${sq(target.id)})`];
    }
    return [];
  }

  /**
   * The collection read that shows what a POST made when its answer names nothing (a batch's
   * count): for a POST to a listable collection that is no create the audit adopted.
   */
  private listBeforePost(input: CurlInput): { input: CurlInput; label: string } | undefined {
    const target = this.deps.custody.targetOf(input.url);
    if (input.method !== 'POST' || !target || target.id !== undefined) return undefined;
    if (!target.r.operations.includes('list') || this.deleter(target.r.name) === undefined) return undefined;
    const read = this.deps.client.request({ method: 'GET', path: target.r.path }, target.r.name);
    return { input: read, label: `GET ${this.pathLabel(read.url)}` };
  }

  /** The line that sends a step: a `send`, or a `send_primed` when it must follow a token on its connection (see primer). */
  private stepLine(ref: StepRef, s: { input: CurlInput; options: CurlOptions }): string {
    const prime = this.primer(s.input);
    if (!prime) return this.sendLine(ref.name, ref.label, s);
    return this.primedLine(
      ref,
      this.argsOf(prime, this.deps.client.connection),
      this.argsOf(s.input, s.options),
    );
  }

  /** `send_primed`: the step's request by the same curl right after the primer, on its connection. */
  private primedLine(ref: StepRef, primer: string[], args: string[]): string {
    this.priming = true;
    return `send_primed ${ref.name} ${sq(ref.label)} ${primer.join(' ')} -- ${args.join(' ')}`;
  }

  /** A step of a `remembered` check: on the connection of the first step, or with its cookie jar (see stateStep). */
  private stateLine(
    ref: StepRef,
    s: { input: CurlInput; options: CurlOptions },
    i: number,
    first: typeof s,
  ): string {
    const step = stateStep(this.check as Remembered, i, s.input);
    ref.label += step.label;
    const args = this.argsOf(step.input, s.options);
    if (!step.primed) return `send ${ref.name} ${sq(ref.label)} ${args.join(' ')}${step.after}`;
    return this.primedLine(ref, this.argsOf(first.input, first.options), args);
  }

  /**
   * For an AUTH-MISSING failure, the authenticated GET of the collection that an unauthenticated
   * request (one that names no secret) is sent after on the same connection: the audit's requests
   * shared keep-alive connections, and a service that remembers a connection's token accepts what
   * comes after it (a correct one answers 401 all the same).
   */
  private primer(input: CurlInput): CurlInput | undefined {
    if (!this.failure.rules.includes('AUTH-MISSING')) return undefined;
    const target = this.deps.custody.targetOf(input.url);
    if (!target) return undefined;
    const read = this.deps.client.request({ method: 'GET', path: target.r.path }, target.r.name);
    const names = (x: CurlInput): boolean => {
      const words = this.argsOf(x, this.deps.client.connection).join(' ');
      return this.deps.config.secrets.some((v) => v.envVar && words.includes(`\${${v.envVar}}`));
    };
    return !names(input) && names(read) ? read : undefined;
  }

  /** A `pages` line: a collection read from its first page, following every next page. */
  private pagesLine(
    name: string,
    label: string,
    input: CurlInput,
    options = this.deps.client.connection,
  ): string {
    this.paging = true;
    const url = firstPage(input.url);
    const args = this.argsOf({ ...input, url }, options);
    const word = shellWord(url, this.deps.client.redactor, this.urlVars());
    args.splice(args.indexOf(word), 1);
    return `pages ${name} ${sq(label)} ${word} ${args.join(' ')}`;
  }

  /** The number of the resource's delete function (undefined: its items have no URL). */
  private deleter(resource: string): number | undefined {
    const r = this.resourceNamed(resource);
    if (!r || itemUrl(r, ID_HOLE) === undefined) return undefined;
    let n = this.deleters.get(resource);
    if (n === undefined) {
      n = this.deleters.size + 1;
      this.deleters.set(resource, n);
    }
    return n;
  }

  private deleteFunctions(): string[] {
    return [...this.deleters].map(([resource, n]) => {
      const r = this.resourceNamed(resource)!;
      const input = this.deps.client.request({ method: 'DELETE', path: itemUrl(r, ID_HOLE)! }, resource);
      const args = curlArgs(input, this.deps.client.redactor, this.deps.client.connection, {
        url: (text) => {
          const spans = this.urlVars()(text).filter(
            (s) => s.shell === '${BASE_URL}' || s.shell === '${ORIGIN}',
          );
          const at = text.indexOf(ID_HOLE);
          if (at >= 0) spans.push({ start: at, end: at + ID_HOLE.length, shell: '$1' });
          return spans.sort((a, b) => a.start - b.start);
        },
      });
      return `delete_${n}() { curl -sS -o /dev/null ${args.join(' ')} 2>/dev/null; } # deletes an item of ${resource} (${itemTemplate(r)})`;
    });
  }

  private resourceNamed(name: string): ResourceConfig | undefined {
    return named(this.deps.config.resources, name);
  }

  /** The step of evidence `i`: its name, label and the status the audit saw. */
  private ref(i: number): StepRef {
    const e = this.failure.evidence[i];
    const url = sentRequest(e)?.input.url ?? e.request.url;
    const created = this.createdItemOf(url);
    const target = this.deps.custody.targetOf(url);
    const id = target?.id;
    return {
      name: `e${i}`,
      label: `${e.request.method} ${this.pathLabel(e.request.url)}`,
      seen: e.response ? String(e.response.status) : '000',
      ...(target && id === undefined ? { list: true } : {}),
      ...(created ? { urlVar: this.variable(created) } : id !== undefined ? { urlId: id } : {}),
    };
  }

  /** A URL as the script prints it: relative to the base URL, created ids as `{id}`. */
  private pathLabel(url: string): string {
    let label = startsWithin(url, this.base) ? url.slice(this.base.length) || '/' : url;
    label = startsWithin(label, this.origin) ? label.slice(this.origin.length) : label;
    for (const v of this.vars.values()) {
      label = label.split(`/${encodeURIComponent(v.id)}`).join(`/{${v.name}}`);
    }
    return label;
  }
}

/** The shell expression of the id(s) a create's answer names where `at` says (`all`: every one of a batch). */
function readAt(step: string, at: NamedAt, all = false): string {
  return at === 'location' ? captureId(step, 'location') : captureId(step, { body: jqPath(at.body) }, all);
}
