import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chunkTextFile } from '../../server/src/retrieval/chunks/index';
import { chunkOpenApi, isOpenApi } from '../../server/src/retrieval/chunks/openapi';
import { ORDERS_OPENAPI_YAML, PETSTORE_SWAGGER_JSON } from './fixtures';
import { assertWellFormed, bySymbol, lineOf } from './helpers';

const YAML_PATH = '/repo/src/main/resources/api/orders.yaml';
const JSON_PATH = '/repo/api/petstore.json';

test('OpenAPI 3 YAML: one endpoint chunk per path and method', () => {
  const chunks = chunkTextFile(YAML_PATH, ORDERS_OPENAPI_YAML);
  assertWellFormed(YAML_PATH, ORDERS_OPENAPI_YAML, chunks);
  const endpoints = chunks.filter((c) => c.kind === 'endpoint').map((c) => c.symbol);
  assert.deepEqual(endpoints, ['GET /orders', 'POST /orders', 'GET /orders/{id}', 'DELETE /orders/{id}', 'POST /payments/{paymentId}/refund']);
});

test('OpenAPI 3 YAML: an endpoint spans exactly its operation, comments above it included', () => {
  const chunks = chunkTextFile(YAML_PATH, ORDERS_OPENAPI_YAML);
  const get = bySymbol(chunks, 'GET /orders');
  assert.equal(get.startLine, lineOf(ORDERS_OPENAPI_YAML, '    get:'));
  assert.equal(get.endLine, lineOf(ORDERS_OPENAPI_YAML, "$ref: '#/components/schemas/Order'") );
  assert.match(get.text, /^    get:\n      operationId: listOrders/);
  assert.match(get.text, /parameters:/);
  assert.match(get.text, /responses:/);

  const post = bySymbol(chunks, 'POST /orders');
  assert.equal(post.startLine, lineOf(ORDERS_OPENAPI_YAML, '# Creating an order reserves stock.'));
  assert.equal(post.endLine, lineOf(ORDERS_OPENAPI_YAML, "$ref: '#/components/responses/BadRequest'"));
  assert.match(post.text, /requestBody:/);

  const del = bySymbol(chunks, 'DELETE /orders/{id}');
  assert.match(del.text, /security:\n        - bearerAuth: \[\]\n        - apiKey: \[\]/);
  assert.equal(del.endLine, lineOf(ORDERS_OPENAPI_YAML, 'description: Cancelled'));
});

test('OpenAPI 3 YAML: header names method and path and carries path-level parameters', () => {
  const chunks = chunkTextFile(YAML_PATH, ORDERS_OPENAPI_YAML);
  const get = bySymbol(chunks, 'GET /orders/{id}');
  const header = get.header!.split('\n');
  assert.equal(header[0], '# GET /orders/{id} — Acme Orders API 1.4.0 (OpenAPI 3.0.3)');
  assert.equal(header[1], 'paths:');
  assert.equal(header[2], '  /orders/{id}:');
  assert.ok(header.includes('      - name: id'), 'shared path parameter is in the header');
  assert.ok(!get.text.includes('- name: id'), 'but not in the text');
});

test('OpenAPI 3 YAML: descriptions are sentences from operationId, summary, parameters, schemas, security', () => {
  const chunks = chunkTextFile(YAML_PATH, ORDERS_OPENAPI_YAML);
  const get = bySymbol(chunks, 'GET /orders/{id}').description!;
  assert.match(get, /^GET \/orders\/\{id\}: get order by id\./);
  assert.match(get, /Fetch one order\./);
  assert.match(get, /Returns the order with its line items\./);
  assert.match(get, /Parameters: id \(path\)/);
  assert.match(get, /Schemas: Order, OrderStatus, OrderItem/);
  assert.match(get, /Security: bearerAuth/); // inherited from the top level

  const list = bySymbol(chunks, 'GET /orders').description!;
  assert.match(list, /list orders/);
  assert.equal(list.match(/list orders/gi)!.length, 1, 'summary equal to the operationId is not repeated');
  assert.match(list, /Parameters: status \(query\), size \(query\)/, 'a $ref parameter is resolved to its name');

  const post = bySymbol(chunks, 'POST /orders').description!;
  assert.match(post, /Request body: CreateOrderRequest as application\/json/);
  assert.match(post, /Responses: 201 Order, 400 Error/, 'a $ref response is resolved to its schema');
  assert.match(post, /Schemas: .*Error/);

  const refund = bySymbol(chunks, 'POST /payments/{paymentId}/refund').description!;
  assert.match(refund, /refund payment/);
  assert.match(refund, /No authentication required/);
  assert.match(refund, /Tags: payments/);
});

test('OpenAPI 3 YAML: one chunk per component schema, saying which endpoints use it', () => {
  const chunks = chunkTextFile(YAML_PATH, ORDERS_OPENAPI_YAML);
  const schemas = chunks.filter((c) => c.kind === 'schema').map((c) => c.symbol);
  assert.deepEqual(schemas, ['components/schemas/Order', 'components/schemas/OrderItem', 'components/schemas/OrderStatus', 'components/schemas/CreateOrderRequest', 'components/schemas/Error']);
  const order = bySymbol(chunks, 'components/schemas/Order');
  assert.equal(order.startLine, lineOf(ORDERS_OPENAPI_YAML, '    Order:'));
  assert.equal(order.endLine, lineOf(ORDERS_OPENAPI_YAML, '    OrderItem:') - 1);
  assert.equal(order.header, '# schema Order — Acme Orders API 1.4.0 (OpenAPI 3.0.3)\ncomponents:\n  schemas:');
  assert.match(order.description!, /Schema Order \(order\), object\. A customer order\. Properties: id, status, items\. Required: id, status\./);
  assert.match(order.description!, /Used by GET \/orders, POST \/orders, GET \/orders\/\{id\}/);
  assert.match(bySymbol(chunks, 'components/schemas/OrderStatus').description!, /Values: NEW, PAID, SHIPPED, CANCELLED/);
  assert.equal(bySymbol(chunks, 'components/securitySchemes/apiKey').kind, 'component');
  assert.equal(bySymbol(chunks, 'components/parameters/PageSize').kind, 'component');
});

test('OpenAPI 3 YAML: info, servers and tags form their own chunk', () => {
  const chunks = chunkTextFile(YAML_PATH, ORDERS_OPENAPI_YAML);
  const meta = chunks.filter((c) => c.kind === 'openapi');
  assert.equal(meta.length, 1);
  assert.equal(meta[0].startLine, 0);
  assert.equal(meta[0].endLine, lineOf(ORDERS_OPENAPI_YAML, '  - name: payments'));
  assert.match(meta[0].description!, /Acme Orders API/);
  assert.match(meta[0].description!, /Servers: https:\/\/api\.acme\.example\/v1/);
});

test('Swagger 2 JSON: endpoints, body parameters, definitions and security', () => {
  const chunks = chunkTextFile(JSON_PATH, PETSTORE_SWAGGER_JSON);
  assertWellFormed(JSON_PATH, PETSTORE_SWAGGER_JSON, chunks);
  assert.deepEqual(chunks.filter((c) => c.kind === 'endpoint').map((c) => c.symbol), ['GET /pets', 'POST /pets', 'DELETE /pets/{id}']);
  const get = bySymbol(chunks, 'GET /pets');
  assert.equal(get.startLine, lineOf(PETSTORE_SWAGGER_JSON, '"get": {'));
  assert.equal(get.endLine, lineOf(PETSTORE_SWAGGER_JSON, '"post": {') - 1);
  assert.match(get.text, /^ {6}"get": \{/);
  assert.match(get.text, /\n {6}\},$/);
  assert.equal(get.header, '// GET /pets — Petstore 1.0.0 (Swagger 2.0)\n  "paths": {\n    "/pets": {');
  assert.match(get.description!, /^GET \/pets: find pets\. Finds pets by tag\. Parameters: tags \(query\), limit \(query\)\. Responses: 200 Pet\./);

  const post = bySymbol(chunks, 'POST /pets');
  assert.match(post.description!, /Request body: NewPet/);
  assert.match(post.description!, /Security: petstore_auth/);
  assert.match(post.text, /"security": \[ \{ "petstore_auth": \["write:pets"\] \} \]/);

  const pet = bySymbol(chunks, 'definitions/Pet');
  assert.equal(pet.kind, 'schema');
  assert.match(pet.text, /^ {4}"Pet": \{/);
  assert.match(pet.description!, /Properties: id, name, tag/);
  assert.match(pet.description!, /Used by GET \/pets, POST \/pets/);
  assert.equal(bySymbol(chunks, 'securityDefinitions/petstore_auth').kind, 'component');
});

test('OpenAPI detection needs a top-level openapi or swagger key', () => {
  assert.equal(isOpenApi(ORDERS_OPENAPI_YAML), true);
  assert.equal(isOpenApi(PETSTORE_SWAGGER_JSON), true);
  assert.equal(isOpenApi('info:\n  openapi: 3.0.0\npaths: {}\n'), false);
  assert.equal(isOpenApi('{"name": "acme", "version": "1.0.0"}'), false);
  assert.deepEqual(chunkOpenApi('/r/a.yaml', 'server:\n  port: 8080\n'), []);
  // Plain JSON is not chunked at all.
  assert.deepEqual(chunkTextFile('/r/package.json', '{\n  "name": "acme",\n  "version": "1.0.0"\n}\n'), []);
  // Plain YAML is chunked as configuration, not as an API.
  assert.ok(chunkTextFile('/r/application.yml', 'server:\n  port: 8080\n').every((c) => c.kind === 'yaml'));
});

test('OpenAPI: CRLF line endings keep exact line ranges', () => {
  const crlf = ORDERS_OPENAPI_YAML.replace(/\n/g, '\r\n');
  const chunks = chunkTextFile(YAML_PATH, crlf);
  assertWellFormed(YAML_PATH, crlf, chunks);
  const lf = chunkTextFile(YAML_PATH, ORDERS_OPENAPI_YAML);
  assert.deepEqual(chunks.map((c) => [c.symbol, c.startLine, c.endLine]), lf.map((c) => [c.symbol, c.startLine, c.endLine]));
});

test('OpenAPI: a minimal spec without components, and unknown refs, do not break descriptions', () => {
  const text = 'openapi: 3.1.0\npaths:\n  /health:\n    get:\n      responses:\n        "200":\n          $ref: "#/components/responses/Missing"\n  /other:\n    x-internal: true\n';
  const chunks = chunkTextFile('/r/health.yml', text);
  assertWellFormed('/r/health.yml', text, chunks);
  const get = bySymbol(chunks, 'GET /health');
  assert.equal(get.startLine, 3);
  assert.equal(get.endLine, 6);
  assert.match(get.description!, /^GET \/health\./);
});

test('OpenAPI: broken spec falls back to line windows', () => {
  const broken = ORDERS_OPENAPI_YAML.replace('  /orders/{id}:', '  /orders/{id}: [unclosed');
  const chunks = chunkTextFile(YAML_PATH, broken);
  assert.ok(chunks.length > 3);
  assertWellFormed(YAML_PATH, broken, chunks);
  assert.ok(chunks.every((c) => c.endLine - c.startLine < 20));
  const brokenJson = PETSTORE_SWAGGER_JSON.replace('"paths": {', '"paths": {{');
  const jsonChunks = chunkTextFile(JSON_PATH, brokenJson);
  assert.ok(jsonChunks.length > 0, 'a broken JSON spec is still chunked by lines');
  assertWellFormed(JSON_PATH, brokenJson, jsonChunks);
});
