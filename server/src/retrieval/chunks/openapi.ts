// OpenAPI 3 / Swagger 2 specifications (YAML or JSON) chunked by endpoint, as qodo describes:
// one chunk per path + HTTP method spanning that operation's lines (its parameters, request body,
// responses and security are inside it), with the path as header and a natural-language
// description built from operationId, summary, description, parameters, referenced schemas and
// security. Each component schema (and each other reusable component) gets its own chunk, and the
// remaining top-level keys (info, servers, tags...) are chunked like YAML configuration.

import type { Chunk } from './types';
import { LineIndex, TARGET_CHARS, baseName, listOf, makeChunk, prose, sentences, words } from './lines';
import { type Entry, type YamlDoc, entriesOf, isMap, isYamlComment, parseYaml, toJs } from './yamlast';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Path-level entries (shared parameters...) are copied into each operation's header up to this size. */
const PATH_HEADER_CHARS = 600;

type Json = Record<string, unknown>;

function obj(v: unknown): Json {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

/** True when the first document is a mapping with a top-level `openapi` or `swagger` key. */
export function isOpenApiDocs(docs: YamlDoc[] | null): boolean {
  const first = docs?.[0]?.contents;
  if (!first || !isMap(first)) return false;
  return first.items.some((p) => {
    const k = (p.key as { value?: unknown } | null)?.value;
    return k === 'openapi' || k === 'swagger';
  });
}

export function isOpenApi(text: string): boolean {
  return isOpenApiDocs(parseYaml(text));
}

/** Endpoint and schema chunks of an OpenAPI/Swagger file; [] when the text is not one. */
export function chunkOpenApi(path: string, text: string): Chunk[] {
  const docs = parseYaml(text);
  if (!docs || !isOpenApiDocs(docs)) return [];
  return chunkOpenApiDoc(path, new LineIndex(text), docs[0]);
}

interface Ctx {
  path: string;
  idx: LineIndex;
  js: Json;
  /** Comment marker for synthesized header lines. */
  comment: string;
  title: string;
  version: string;
  /** Schema name -> endpoints that use it. */
  usedBy: Map<string, string[]>;
}

export function chunkOpenApiDoc(path: string, idx: LineIndex, doc: YamlDoc): Chunk[] {
  const root = doc.contents;
  const js = obj(toJs(doc));
  const isJson = /^\s*[{[]/.test(idx.text.replace(/^\uFEFF/, ''));
  const version = str(js.openapi) || str(js.swagger);
  const ctx: Ctx = {
    path,
    idx,
    js,
    comment: isJson ? '//' : '#',
    title: [str(obj(js.info).title), str(obj(js.info).version)].filter(Boolean).join(' '),
    version: js.openapi !== undefined ? `OpenAPI ${version}` : `Swagger ${version}`,
    usedBy: new Map(),
  };
  const endpoints: Chunk[] = [];
  const components: Chunk[] = [];
  // Consecutive other top-level entries (info, servers, tags...), grouped up to the target size.
  const metaRuns: Entry[][] = [];
  let run: Entry[] | null = null;
  for (const e of entriesOf(root, idx)) {
    if (e.label === 'paths') endpoints.push(...pathChunks(ctx, e));
    else if (e.label === 'components') components.push(...componentChunks(ctx, e, ['components'], e.value));
    else if (['definitions', 'parameters', 'responses', 'securityDefinitions'].includes(e.label) && js.swagger !== undefined) {
      components.push(...componentChunks(ctx, e, [], root));
    } else {
      if (run && idx.size(run[0].startLine, e.endLine) <= TARGET_CHARS) run.push(e);
      else metaRuns.push((run = [e]));
      continue;
    }
    run = null;
  }
  // Now that every endpoint is known, schemas can say where they are used.
  for (const c of components) {
    const name = c.symbol?.match(/^(?:components\/schemas|definitions)\/(.+)$/)?.[1];
    const users = name ? ctx.usedBy.get(name) : undefined;
    if (users?.length) c.description = sentences([c.description, `Used by ${listOf(users, 8)}`]);
  }
  return [...metaChunks(ctx, metaRuns), ...endpoints, ...components];
}

// ---------------------------------------------------------------------------------------------
// Endpoints

function pathChunks(ctx: Ctx, pathsEntry: Entry): Chunk[] {
  const { idx } = ctx;
  const out: Chunk[] = [];
  const pathsLine = idx.line(pathsEntry.startLine);
  const pathsJs = obj(ctx.js.paths);
  for (const p of entriesOf(pathsEntry.value, idx)) {
    const item = entriesOf(p.value, idx);
    const ops = item.filter((e) => METHODS.includes(e.label.toLowerCase()));
    const shared = item.filter((e) => !METHODS.includes(e.label.toLowerCase()));
    const pathLines = p.startLine > pathsEntry.startLine ? [idx.line(p.startLine)] : [];
    const sharedLines: string[] = [];
    for (const s of shared) {
      if (s.startLine <= p.startLine) continue;
      sharedLines.push(...idx.lines.slice(s.startLine, s.endLine + 1));
    }
    const sharedText = sharedLines.join('\n');
    const itemJs = obj(resolve(ctx, pathsJs[p.label]));
    let prevEnd = p.startLine;
    for (const op of ops) {
      const method = op.label.toUpperCase();
      const symbol = `${method} ${p.label}`;
      const start = idx.extendOverComments(op.startLine, prevEnd + 1, isYamlComment);
      const end = Math.max(op.endLine, start);
      prevEnd = end;
      const header = [
        `${ctx.comment} ${symbol}${ctx.title ? ` — ${ctx.title}` : ''} (${ctx.version})`,
        ...(pathsEntry.startLine < start ? [pathsLine] : []),
        ...(p.startLine < start ? pathLines : []),
        ...(sharedText && sharedText.length <= PATH_HEADER_CHARS ? sharedLines : []),
      ].join('\n');
      const opJs = obj(itemJs[op.label]);
      const description = describeOperation(ctx, symbol, opJs, itemJs);
      out.push(makeChunk(ctx.path, idx, start, end, 'endpoint', { symbol, header, description }));
    }
  }
  return out;
}

/** Follows a local `$ref` (`#/components/schemas/X`, `#/definitions/X`) a few times. */
function resolve(ctx: Ctx, v: unknown, depth = 0): unknown {
  const ref = obj(v).$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/') || depth > 5) return v;
  let cur: unknown = ctx.js;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    cur = obj(cur)[key];
    if (cur === undefined) return v;
  }
  return resolve(ctx, cur, depth + 1);
}

function schemaName(ref: string): string | undefined {
  return ref.match(/^#\/(?:components\/schemas|definitions)\/(.+)$/)?.[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Names of the schemas an operation uses: its direct `$ref`s, those reached through referenced
 * parameters/responses/request bodies, and the schemas those schemas reference (two levels).
 */
function referencedSchemas(ctx: Ctx, v: unknown): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  const walk = (node: unknown, depth: number) => {
    if (depth > 40 || !node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const x of node) walk(x, depth + 1);
      return;
    }
    for (const [k, val] of Object.entries(node as Json)) {
      if (k === '$ref' && typeof val === 'string') {
        if (seen.has(val)) continue;
        seen.add(val);
        const name = schemaName(val);
        if (name) {
          names.push(name);
          // One more level: what the schema itself refers to.
          if (names.length < 20) walkShallow(resolve(ctx, { $ref: val }));
        } else if (val.startsWith('#/')) {
          walk(resolve(ctx, { $ref: val }), depth + 1);
        }
      } else walk(val, depth + 1);
    }
  };
  const walkShallow = (schema: unknown) => {
    const refs: string[] = [];
    collectRefs(schema, refs, 0);
    for (const r of refs) {
      const name = schemaName(r);
      if (name && !seen.has(r)) {
        seen.add(r);
        names.push(name);
      }
    }
  };
  walk(v, 0);
  return names;
}

function collectRefs(node: unknown, out: string[], depth: number): void {
  if (depth > 30 || !node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const x of node) collectRefs(x, out, depth + 1);
    return;
  }
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === '$ref' && typeof v === 'string') out.push(v);
    else collectRefs(v, out, depth + 1);
  }
}

function describeOperation(ctx: Ctx, symbol: string, op: Json, item: Json): string {
  const opId = str(op.operationId);
  const params = [...arr(item.parameters), ...arr(op.parameters)].map((p) => obj(resolve(ctx, p)));
  const paramText = params
    .filter((p) => str(p.name))
    .map((p) => (str(p.in) ? `${str(p.name)} (${str(p.in)})` : str(p.name)));
  const body: string[] = [];
  const rb = obj(resolve(ctx, op.requestBody));
  for (const [type, media] of Object.entries(obj(rb.content))) {
    const ref = str(obj(obj(media).schema).$ref);
    body.push(ref ? `${schemaName(ref) ?? ref} as ${type}` : type);
  }
  for (const p of params) {
    if (p.in === 'body') {
      const ref = str(obj(p.schema).$ref);
      body.push(ref ? (schemaName(ref) ?? ref) : str(p.name));
    }
  }
  const responses: string[] = [];
  for (const [code, r0] of Object.entries(obj(op.responses))) {
    const r = obj(resolve(ctx, r0));
    const refs: string[] = [];
    collectRefs(r.content ?? r.schema, refs, 0);
    const named = refs.map((x) => schemaName(x)).filter((x): x is string => !!x);
    const what = named.length ? named.join('/') : prose(r.description, 40);
    responses.push(what ? `${code} ${what}` : code);
  }
  const schemas = referencedSchemas(ctx, { item: { parameters: item.parameters }, op });
  for (const s of schemas) {
    const list = ctx.usedBy.get(s) ?? [];
    if (!list.includes(symbol)) list.push(symbol);
    ctx.usedBy.set(s, list);
  }
  const security = op.security !== undefined ? op.security : ctx.js.security;
  const schemes = arr(security).flatMap((req) => Object.keys(obj(req)));
  const securityText = Array.isArray(security)
    ? schemes.length
      ? `Security: ${listOf(schemes)}`
      : 'No authentication required'
    : '';
  const tags = arr(op.tags).map(str).filter(Boolean);
  const lead = opId ? `${symbol}: ${words(opId)}` : str(op.summary) ? `${symbol}: ${prose(op.summary, 160)}` : symbol;
  return sentences([
    lead,
    opId && str(op.summary) && words(str(op.summary)) !== words(opId) ? prose(op.summary, 160) : '',
    prose(op.description, 300),
    op.deprecated === true ? 'Deprecated' : '',
    paramText.length ? `Parameters: ${listOf(paramText)}` : '',
    body.length ? `Request body: ${listOf(body)}` : '',
    responses.length ? `Responses: ${listOf(responses)}` : '',
    schemas.length ? `Schemas: ${listOf(schemas)}` : '',
    securityText,
    tags.length ? `Tags: ${listOf(tags)}` : '',
  ]);
}

// ---------------------------------------------------------------------------------------------
// Components (schemas, parameters, responses, security schemes...)

/**
 * One chunk per entry of each component section. `prefix` is the key path of `container` (the
 * node whose entries are the sections): ['components'] for OpenAPI 3, [] for Swagger 2's top level.
 */
function componentChunks(ctx: Ctx, sectionOwner: Entry, prefix: string[], container: unknown): Chunk[] {
  const { idx } = ctx;
  const out: Chunk[] = [];
  const sections = prefix.length ? entriesOf(container, idx) : [sectionOwner];
  const compJs = prefix.length ? obj(ctx.js.components) : ctx.js;
  for (const section of sections) {
    const sectionJs = obj(compJs[section.label]);
    const entries = entriesOf(section.value, idx);
    let prevEnd = section.startLine;
    for (const e of entries) {
      const start = idx.extendOverComments(e.startLine, prevEnd + 1, isYamlComment);
      const end = Math.max(e.endLine, start);
      prevEnd = end;
      const pointer = [...prefix, section.label, e.label].join('/');
      const isSchema = section.label === 'schemas' || section.label === 'definitions';
      const headerLines = [
        `${ctx.comment} ${isSchema ? 'schema' : section.label} ${e.label}${ctx.title ? ` — ${ctx.title}` : ''} (${ctx.version})`,
        ...(prefix.length && sectionOwner.startLine < start ? [idx.line(sectionOwner.startLine)] : []),
        ...(section.startLine < start ? [idx.line(section.startLine)] : []),
      ];
      const value = obj(sectionJs[e.label]);
      const description = isSchema ? describeSchema(e.label, value) : describeComponent(ctx, section.label, e.label, value);
      out.push(makeChunk(ctx.path, idx, start, end, isSchema ? 'schema' : 'component', { symbol: pointer, header: headerLines.join('\n'), description }));
    }
  }
  return out;
}

function describeSchema(name: string, s: Json): string {
  const props = Object.keys(obj(s.properties));
  const required = arr(s.required).map(str).filter(Boolean);
  const refs: string[] = [];
  collectRefs(s, refs, 0);
  const related = refs.map((r) => schemaName(r)).filter((x): x is string => !!x && x !== name);
  const enums = arr(s.enum).map(str).filter(Boolean);
  const composed = ['allOf', 'oneOf', 'anyOf'].filter((k) => Array.isArray(s[k]));
  return sentences([
    `Schema ${name} (${words(name)})${str(s.type) ? `, ${str(s.type)}` : ''}`,
    prose(s.title, 120),
    prose(s.description, 300),
    props.length ? `Properties: ${listOf(props, 20)}` : '',
    required.length ? `Required: ${listOf(required)}` : '',
    enums.length ? `Values: ${listOf(enums)}` : '',
    composed.length ? `Composed with ${composed.join(', ')}` : '',
    related.length ? `Refers to schemas: ${listOf(related)}` : '',
  ]);
}

function describeComponent(ctx: Ctx, section: string, name: string, v: Json): string {
  const refs = referencedSchemas(ctx, v);
  return sentences([
    `${section} component ${name} (${words(name)})`,
    str(v.name) ? `Parameter ${str(v.name)}${str(v.in) ? ` in ${str(v.in)}` : ''}` : '',
    str(v.type) ? `Type ${str(v.type)}${str(v.scheme) ? ` ${str(v.scheme)}` : ''}` : '',
    prose(v.description, 240),
    refs.length ? `Schemas: ${listOf(refs)}` : '',
  ]);
}

// ---------------------------------------------------------------------------------------------
// Everything else at the top level (openapi/swagger, info, servers, tags, security...)

function metaChunks(ctx: Ctx, runs: Entry[][]): Chunk[] {
  const { idx } = ctx;
  const out: Chunk[] = [];
  const info = obj(ctx.js.info);
  const servers = arr(ctx.js.servers).map((s) => str(obj(s).url)).filter(Boolean);
  const tags = arr(ctx.js.tags).map((t) => str(obj(t).name)).filter(Boolean);
  let floor = 0;
  for (const run of runs) {
    const first = run[0];
    const last = run[run.length - 1];
    const r = idx.trim(idx.extendOverComments(first.startLine, floor, isYamlComment), last.endLine);
    floor = last.endLine + 1;
    if (!r) continue;
    const labels = run.map((e) => e.label);
    const parts = [
      `${ctx.version} specification${ctx.title ? ` ${ctx.title}` : ''} in ${baseName(ctx.path)}: ${labels.join(', ')}`,
      labels.includes('info') ? prose(info.description, 300) : '',
      labels.includes('servers') && servers.length ? `Servers: ${listOf(servers)}` : '',
      labels.includes('host') ? `Host: ${str(ctx.js.host)}${str(ctx.js.basePath)}` : '',
      labels.includes('tags') && tags.length ? `Tags: ${listOf(tags)}` : '',
      labels.includes('security') ? `Security: ${listOf(arr(ctx.js.security).flatMap((x) => Object.keys(obj(x))))}` : '',
    ];
    out.push(makeChunk(ctx.path, idx, r.start, r.end, 'openapi', { symbol: labels.join(', '), description: sentences(parts) }));
  }
  return out;
}
