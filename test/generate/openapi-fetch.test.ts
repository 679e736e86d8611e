/**
 * `oec generate` output as openapi-fetch users need it: `createClient<paths>()` types calls
 * (path parameters, query, request and response bodies), a discriminator narrows its union by
 * the tag, `readOnly` properties are not part of request types and `writeOnly` ones not of
 * response types. Every claim is a line that must compile, or a `@ts-expect-error` line that
 * must not (an unused directive is itself an error), under strict tsc.
 */
import { symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ROOT } from '../helpers/cli.ts'
import { runMain } from '../helpers/main.ts'
import { freshProject, runTsc, tempDir, writeStrictTsconfig, type Diagnostic } from './helpers.ts'

const SPEC = `openapi: 3.0.3
info: {title: pets, version: "1"}
paths:
  /pets/{petId}:
    get:
      operationId: getPet
      parameters:
        - {name: petId, in: path, required: true, schema: {type: string}}
        - {name: fields, in: query, schema: {type: string}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}}
        "404": {description: missing}
  /accounts:
    post:
      operationId: createAccount
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: "#/components/schemas/Account"}}}
      responses:
        "201": {description: created, content: {application/json: {schema: {$ref: "#/components/schemas/Account"}}}}
components:
  schemas:
    Pet:
      oneOf: [{$ref: "#/components/schemas/Dog"}, {$ref: "#/components/schemas/Cat"}]
      discriminator:
        propertyName: kind
        mapping: {dog: "#/components/schemas/Dog", cat: "#/components/schemas/Cat"}
    Dog:
      type: object
      required: [kind, bark]
      properties: {kind: {type: string}, bark: {type: boolean}}
    Cat:
      type: object
      required: [kind, lives]
      properties: {kind: {type: string}, lives: {type: integer}}
    Account:
      type: object
      additionalProperties: false
      required: [name]
      properties:
        id: {type: string, readOnly: true}
        name: {type: string}
        password: {type: string, writeOnly: true}
`

const CONSUMER = `import createClient from 'openapi-fetch';
import type { paths, components, Pet } from './out/index.js';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:1' });

export async function pets(): Promise<number> {
  const { data } = await client.GET('/pets/{petId}', { params: { path: { petId: 'p1' }, query: { fields: 'kind' } } });
  if (data === undefined) return 0;
  // The tag narrows the union: a dog barks, a cat has lives.
  if (data.kind === 'dog') return data.bark ? 1 : 0;
  return data.lives;
}

export async function accounts(): Promise<string | undefined> {
  const { data } = await client.POST('/accounts', { body: { name: 'a', password: 'p' } });
  // @ts-expect-error password is writeOnly: not part of a response
  data?.password;
  return data?.id;
}

type AccountBody = paths['/accounts']['post']['requestBody']['content']['application/json'];
// @ts-expect-error id is readOnly: not part of a request body
export const withId: AccountBody = { name: 'a', id: 'x' };

// @ts-expect-error the path parameter is required
client.GET('/pets/{petId}', { params: {} });
// @ts-expect-error no such path
client.GET('/nope');
// @ts-expect-error a tag the mapping does not have
export const wrongTag: Pet = { kind: 'bird', bark: true };
export const dog: components['schemas']['Dog'] = { kind: 'dog', bark: false };
`

const tmp = tempDir('openapi-fetch')
let tsc: { code: number | null; diagnostics: Diagnostic[]; output: string }

beforeAll(async () => {
  freshProject(tmp.dir)
  for (const pkg of ['openapi-fetch', 'openapi-typescript-helpers'])
    symlinkSync(join(ROOT, 'node_modules', pkg), join(tmp.dir, 'node_modules', pkg), 'dir')
  writeFileSync(join(tmp.dir, 'spec.yaml'), SPEC)
  const r = await runMain(['generate', '--spec', join(tmp.dir, 'spec.yaml'), '--out', join(tmp.dir, 'out')])
  expect(r.code, r.stderr).toBe(0)
  writeFileSync(join(tmp.dir, 'consumer.ts'), CONSUMER)
  writeStrictTsconfig(tmp.dir, ['out/*.ts', 'consumer.ts'], ['ES2022', 'DOM'])
  tsc = await runTsc(tmp.dir, ['-p', 'tsconfig.json', '--pretty', 'false'])
}, 120_000)
afterAll(() => tmp.cleanup())

it('an openapi-fetch client typed by the generated paths compiles, and every @ts-expect-error line is an error', () => {
  expect(tsc.diagnostics).toEqual([])
  expect(tsc.code, tsc.output).toBe(0)
})
