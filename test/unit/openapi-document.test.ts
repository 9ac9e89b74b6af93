/**
 * The OpenAPI document as generated clients and linters read it (src/http/openapi-document.ts): every
 * operation named once, filed under a declared tag; `nullable` always beside a `type`; every pattern a
 * regex that matches its own examples; one component per shape; the error codes, the pagination headers,
 * the line detail and the audit snapshots typed.
 */
import { describe, expect, it } from 'vitest';
import { apiDocumentText } from '../../src/http/document.js';
import { ERROR_CODES } from '../../src/http/error-codes.js';
import { CloudEventSchema } from '../../src/http/routes/events/schemas.js';

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  tags?: string[];
  parameters?: { in: string; name: string }[];
  responses: Record<string, { headers?: Record<string, { $ref?: string }>; content?: Record<string, { schema: Json }> }>;
}
interface Document {
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; headers?: Record<string, Json> };
}

/** The app's document, from its route definitions alone. */
const doc = JSON.parse(await apiDocumentText()) as Document;
const operations = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
  Object.entries(byMethod).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, operation })),
);

/** Every schema object in the document with its JSON pointer. */
function schemaNodes(node: unknown, pointer = '#', out: { pointer: string; node: Json }[] = []): { pointer: string; node: Json }[] {
  if (Array.isArray(node)) node.forEach((item, i) => schemaNodes(item, `${pointer}/${i}`, out));
  else if (typeof node === 'object' && node !== null) {
    out.push({ pointer, node: node as Json });
    for (const [key, value] of Object.entries(node)) if (key !== 'x-error-codes' && key !== 'x-issue-codes') schemaNodes(value, `${pointer}/${key}`, out);
  }
  return out;
}
const nodes = schemaNodes({ paths: doc.paths, components: doc.components });
const resolve = (schema: Json): Json => (typeof schema.$ref === 'string' ? doc.components.schemas[schema.$ref.split('/').pop()!]! : schema);

describe('the OpenAPI document', () => {
  it('names every operation once, with an identifier a client can use as a method name', () => {
    expect(operations.length).toBeGreaterThan(100);
    expect(operations.filter(({ operation }) => !/^[a-z][A-Za-z0-9]*$/.test(operation.operationId ?? '')).map(({ route }) => route)).toEqual([]);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('declares servers and every tag its operations use, each used and described', () => {
    expect(doc.servers?.length).toBeGreaterThan(0);
    const declared = (doc.tags ?? []).map((tag) => tag.name);
    const used = new Set(operations.flatMap(({ operation }) => operation.tags ?? []));
    expect(operations.filter(({ operation }) => (operation.tags ?? []).length === 0).map(({ route }) => route)).toEqual([]);
    expect([...used].filter((tag) => !declared.includes(tag))).toEqual([]);
    expect(declared.filter((tag) => !used.has(tag))).toEqual([]);
    expect((doc.tags ?? []).filter((tag) => !tag.description).map((tag) => tag.name)).toEqual([]);
  });

  it('puts a type beside every nullable', () => {
    expect(nodes.filter(({ node }) => node.nullable === true && node.type === undefined).map(({ pointer }) => pointer)).toEqual([]);
  });

  it('has patterns that compile as regexes without flags and match their own examples', () => {
    const patterns = nodes.filter(({ node }) => typeof node.pattern === 'string');
    expect(patterns.length).toBeGreaterThan(0);
    const failures = patterns.flatMap(({ pointer, node }) => {
      let regex: RegExp;
      try {
        regex = new RegExp(node.pattern as string, 'u');
      } catch (err) {
        return [`${pointer}: ${(err as Error).message}`];
      }
      const examples = [node.example, ...((node.examples as unknown[] | undefined) ?? [])].filter((example): example is string => typeof example === 'string');
      return examples.filter((example) => !regex.test(example)).map((example) => `${pointer}: ${JSON.stringify(example)} does not match ${node.pattern as string}`);
    });
    expect(failures).toEqual([]);
  });

  it("publishes CloudEvent.datacontenttype as the pattern the server validates with", () => {
    const pattern = new RegExp((resolve({ $ref: '#/components/schemas/CloudEvent' }).properties as Record<string, Json>).datacontenttype!.pattern as string);
    const accepts = (datacontenttype: string) =>
      CloudEventSchema.safeParse({ specversion: '1.0', id: 'evt-1', source: 'test', type: 'api_calls', subject: '01900000-0000-7000-8000-000000000000', datacontenttype }).success;
    for (const type of ['application/json', 'Application/JSON', 'application/cloudevents+json; charset=utf-8', 'text/plain', 'application/xml', 'application/jsonx', '']) {
      expect(pattern.test(type), type).toBe(accepts(type));
    }
    expect(pattern.test('APPLICATION/JSON')).toBe(true);
    expect(pattern.test('text/json')).toBe(false);
  });

  it('has one component per shape', () => {
    const shape = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(shape)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'description' && key !== 'example').map(([key, inner]) => [key, shape(inner)]))
          : value;
    const byShape = new Map<string, string[]>();
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      const key = JSON.stringify(shape(schema));
      byShape.set(key, [...(byShape.get(key) ?? []), name]);
    }
    expect([...byShape.values()].filter((names) => names.length > 1)).toEqual([]);
  });

  it("types error.code as the registry's codes", () => {
    const error = (doc.components.schemas.Error!.properties as Record<string, Json>).error!;
    const code = (error.properties as Record<string, Json>).code!;
    expect(code.enum).toEqual(Object.keys(ERROR_CODES));
  });

  it('declares the pagination headers on the response of every paginated list', () => {
    const lists = operations
      .filter(({ operation }) => (operation.parameters ?? []).some((parameter) => parameter.in === 'query' && parameter.name === 'starting_after'))
      .map(({ route, operation }) => ({ at: route, response: operation.responses['200']! }));
    expect(lists.filter(({ response }) => resolve(response.content?.['application/json']?.schema ?? {}).type !== 'array').map(({ at }) => at)).toEqual([]);
    expect(lists.length).toBeGreaterThan(20);
    const missing = lists.filter(({ response }) => !['X-Has-More', 'X-Next-Cursor', 'Link'].every((name) => response.headers?.[name]?.$ref === `#/components/headers/${name}`));
    expect(missing.map(({ at }) => at)).toEqual([]);
    expect(Object.keys(doc.components.headers ?? {})).toEqual(['X-Has-More', 'X-Next-Cursor', 'Link']);
  });

  it('types the line detail and the audit snapshots', () => {
    const detail = doc.components.schemas.InvoiceLineDetail!;
    expect(detail).toMatchObject({ type: 'object', nullable: true });
    expect(Object.keys(detail.properties as Json)).toEqual(expect.arrayContaining(['tiers', 'adjustments', 'adjustment', 'rate_bps', 'alerts']));
    const line = doc.components.schemas.InvoiceLineItem!.properties as Record<string, Json>;
    expect(line.detail).toEqual({ $ref: '#/components/schemas/InvoiceLineDetail' });
    const audit = doc.components.schemas.AuditEntry!.properties as Record<string, Json>;
    for (const field of ['before', 'after']) expect(audit[field]).toMatchObject({ type: 'object', nullable: true, additionalProperties: true });
  });
});
