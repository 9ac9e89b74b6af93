/**
 * /admin/v1/audit-log: the append-only audit trail (SPEC §1), one entry per mutating operation with
 * its actor, request id and the resource before and after. Read-only: the database refuses any
 * UPDATE or DELETE of an entry.
 */
import { createRoute } from '@hono/zod-openapi';
import { AuditEntrySchema } from '../../../schemas/audit.js';
import { jsonResponse, pageResponse } from '../../helpers.js';
import { IdParamSchema } from '../../schemas.js';
import { AuditQuerySchema } from './schemas.js';

export const list = createRoute({
  method: 'get',
  path: '/admin/v1/audit-log',
  operationId: 'listAuditEntries',
  tags: ['Audit'],
  summary: 'List audit entries, newest first',
  description: 'Every filter narrows the list; combine them freely. Pagination as on every list (X-Has-More, X-Next-Cursor, Link).',
  request: { query: AuditQuerySchema },
  responses: { 200: pageResponse('A page of audit entries', AuditEntrySchema, 'AuditEntryList') },
});

export const get = createRoute({
  method: 'get',
  path: '/admin/v1/audit-log/{id}',
  operationId: 'getAuditEntry',
  tags: ['Audit'],
  summary: 'Get one audit entry',
  description: 'One entry of the append-only audit trail, with the resource before and after the change.',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The entry', AuditEntrySchema) },
});
