/**
 * Every REST answer the suite receives through the test server's `request` is checked against the
 * OpenAPI document the server publishes (`/wp-json/cal/events/v1/openapi.json`), with a JSON
 * Schema 2020-12 validator (Ajv): its status must be documented for the operation, its body must
 * match that status's schema, and the headers it documents as required must be there and match. A
 * presenter that drifts from the document fails the test that met the answer.
 *
 * The document is fetched once per server; each (operation, status) schema is compiled the first
 * time an answer needs it, and kept for every later server of the process (the schemas do not
 * depend on the server, only `servers` does).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { default as formats } from 'ajv-formats';

type Json = Record<string, any>;

const DOC_ID = 'https://cal-events.test/openapi.json';
/** WordPress global parameters that reshape an answer; the document says so and leaves them out. */
const RESHAPING = ['_envelope', '_jsonp', '_fields', '_method'];
const PREFIX = /^(?:\/[a-z]{2})?\/wp-json\/cal\/events\/v1(\/.*)?$/;

interface Operation {
  pattern: RegExp;
  path: string;
  method: string;
  op: Json;
}

let shared: { key: string; ajv: Ajv2020; validators: Map<string, ValidateFunction>; operations: Operation[] } | undefined;

const pointer = (...segments: string[]) => '#/' + segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

function compileDoc(doc: Json) {
  const key = JSON.stringify({ ...doc, servers: [] });
  if (shared?.key === key) return shared;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: its function is the module itself or its `default`.
  formats.default(ajv);
  ajv.addSchema(doc, DOC_ID);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    const regex = path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const param = Object.values<Json>(item).flatMap((o) => o.parameters ?? []).find((p: Json) => p.in === 'path' && p.name === name);
      return param?.schema?.type === 'integer' ? '(\\d+)' : '([^/]+)';
    });
    for (const [method, op] of Object.entries<Json>(item)) operations.push({ pattern: new RegExp(`^${regex}/?$`), path, method: method.toUpperCase(), op });
  }
  shared = { key, ajv, validators: new Map(), operations };
  return shared;
}

export interface Answer {
  method: string;
  /** Path and query, as requested. */
  url: string;
  requestHeaders: Record<string, string>;
  /** The JSON body sent, if any. */
  sent?: unknown;
  /** A body was sent that is not JSON (a form): not read back, the request side is not checked. */
  form?: boolean;
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** Checks answers of one server against its document; `violations` throws a description of what differs. */
export function answerChecker(base: string) {
  let doc: Promise<Json> | undefined;
  const load = () =>
    (doc ??= fetch(`${base}/wp-json/cal/events/v1/openapi.json`).then(async (r) => {
      if (r.status !== 200) throw new Error(`openapi.json answered ${r.status}`);
      return (await r.json()) as Json;
    }));

  return async function check(a: Answer): Promise<void> {
    const url = new URL(a.url, base);
    const m = PREFIX.exec(url.pathname);
    if (!m) return;
    const method = (a.requestHeaders['X-HTTP-Method-Override'] ?? a.method).toUpperCase();
    if (RESHAPING.some((p) => url.searchParams.has(p) || [...url.searchParams.keys()].some((k) => k.startsWith(`${p}[`)))) return;
    const { ajv, validators, operations } = compileDoc(await load());
    const route = (m[1] ?? '/').replace(/\/+$/, '') || '/';
    const found = operations.find((o) => o.method === method && o.pattern.test(route));
    // Routes and methods the document does not describe (the index, `/doc`, OPTIONS, HEAD, no route).
    if (!found) return;
    const where = `${method} ${a.url} → ${a.status}`;
    // The request side: what the service accepted, the document must accept too.
    if (a.status < 300 && !a.form) {
      const refused = requestProblems(await load(), method, url, a.sent);
      if (refused?.length) throw new Error(`OpenAPI: ${where}: accepted by the service, refused by the document:\n  ${refused.join('\n  ')}\n  sent: ${JSON.stringify(a.sent)?.slice(0, 500)}`);
    }
    const response = found.op.responses?.[String(a.status)];
    if (!response) throw new Error(`OpenAPI: ${where}: status not documented for ${found.op.operationId}\n${a.text.slice(0, 500)}`);
    const problems: string[] = [];
    const type = a.headers.get('content-type') ?? '';
    const media = Object.keys(response.content ?? {});
    if (media.length && !media.some((t) => type.startsWith(t))) problems.push(`content-type ${type}, documented ${media.join(', ')}`);
    for (const [name, header] of Object.entries<Json>(response.headers ?? {})) {
      const value = a.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`header ${name} missing`);
        continue;
      }
      const vkey = `${found.path} ${found.method} ${a.status} header ${name}`;
      const validate = validators.get(vkey) ?? ajv.compile({ $ref: DOC_ID + pointer('paths', found.path, found.method.toLowerCase(), 'responses', String(a.status), 'headers', name, 'schema') });
      validators.set(vkey, validate);
      if (!validate(value)) problems.push(`header ${name}: ${ajv.errorsText(validate.errors)}`);
    }
    if (response.content?.['application/json']) {
      const key = `${found.path} ${found.method} ${a.status}`;
      const validate = validators.get(key) ?? ajv.compile({ $ref: DOC_ID + pointer('paths', found.path, found.method.toLowerCase(), 'responses', String(a.status), 'content', 'application/json', 'schema') });
      validators.set(key, validate);
      if (a.body === undefined) problems.push('body is not JSON');
      else if (!validate(a.body)) {
        problems.push(...(validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`));
      }
    }
    if (problems.length) throw new Error(`OpenAPI: ${where} (${found.op.operationId}) differs from the document:\n  ${problems.join('\n  ')}\n${a.text.slice(0, 800)}`);
  };
}

/**
 * What the document says of a request: the problems its parameters and body have against the
 * operation's schemas (none: the document accepts it), or null when it describes no such operation.
 * Query values are read as WordPress reads them: `x[]=` and repeated names make a list.
 */
export function requestProblems(doc: Json, method: string, url: URL, body?: unknown): string[] | null {
  const { ajv, validators, operations } = compileDoc(doc);
  const route = (PREFIX.exec(url.pathname)?.[1] ?? '/').replace(/\/+$/, '') || '/';
  const found = operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(route));
  if (!found) return null;
  const compiled = (key: string, ...at: string[]) => {
    const validate = validators.get(key) ?? ajv.compile({ $ref: DOC_ID + pointer('paths', found.path, found.method.toLowerCase(), ...at) });
    validators.set(key, validate);
    return validate;
  };
  const problems: string[] = [];
  const params = (found.op.parameters ?? []) as Json[];
  params.forEach((p, i) => {
    if (p.in !== 'query') return;
    const values = [...url.searchParams.getAll(p.name), ...url.searchParams.getAll(`${p.name}[]`)];
    if (!values.length) {
      if (p.required) problems.push(`${p.name} missing`);
      return;
    }
    const value = values.length > 1 || url.searchParams.has(`${p.name}[]`) ? values : values[0];
    const validate = compiled(`${found.path} ${found.method} query ${p.name}`, 'parameters', String(i), 'schema');
    if (!validate(value)) problems.push(`${p.name}: ${ajv.errorsText(validate.errors)}`);
  });
  // Writes read their parameters from the query too (WordPress merges them; the body wins).
  if (found.op.requestBody) {
    const merged: Json = {};
    for (const name of new Set([...url.searchParams.keys()].map((k) => k.replace(/\[\]$/, '')))) {
      const values = [...url.searchParams.getAll(name), ...url.searchParams.getAll(`${name}[]`)];
      merged[name] = values.length > 1 || url.searchParams.has(`${name}[]`) ? values : values[0];
    }
    if (body && typeof body === 'object' && !Array.isArray(body)) Object.assign(merged, body);
    const validate = compiled(`${found.path} ${found.method} body`, 'requestBody', 'content', 'application/json', 'schema');
    if (!validate(merged)) problems.push(`body: ${ajv.errorsText(validate.errors)}`);
  }
  return problems;
}
