/**
 * The source of client/schema.d.ts: the OpenAPI document of the routes (src/http/document.ts) through
 * openapi-typescript, with a header saying where it comes from. Shared by the generator script and
 * the test that keeps the committed file in sync.
 */
import openapiTS, { astToString } from 'openapi-typescript';
import { apiDocumentText } from '../src/http/document.js';

const HEADER = `/**
 * Generated from the billing API's OpenAPI document by openapi-typescript (npm run client:generate).
 * Do not edit: the test suite fails while this file and the document disagree.
 */

`;

export async function clientSchemaSource(): Promise<string> {
  const ast = await openapiTS(JSON.parse(await apiDocumentText()) as Parameters<typeof openapiTS>[0]);
  return HEADER + astToString(ast);
}
