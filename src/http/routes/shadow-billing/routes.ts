/**
 * Shadow billing (docs/shadow-billing.md), admin only: a candidate plan version attached to live
 * subscriptions, every covered period close also rated with it, and the variance.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ShadowAttachmentSchema, ShadowVarianceSchema } from '../../../schemas/shadow-billing.js';
import { jsonResponse, mutationRequest, pageResponse } from '../../helpers.js';
import { IdempotencyHeaderSchema, IdParamSchema } from '../../schemas.js';
import { AttachShadowSchema, ListShadowAttachmentsQuerySchema, ShadowVarianceQuerySchema } from './schemas.js';

const tags = ['Shadow billing'];

export const attach = createRoute({
  method: 'post',
  path: '/admin/v1/shadow-billing/attachments',
  operationId: 'attachShadowBilling',
  tags,
  summary: 'Attach a candidate plan version as a shadow',
  description:
    'From now on, every period close of a subscription in `scope` (named subscriptions, or those on a plan at their close) is followed ' +
    'by a shadow rating: the closed period rated with the candidate plan version by the close’s own rating, stored beside the ' +
    'period’s invoice with what the close billed. Customers see nothing of it. Audited (shadow_billing.attached). An unknown plan is ' +
    '404 `plan_not_found`, an unknown version 404 `plan_version_not_found`, an unknown subscription 404 `subscription_not_found`; a ' +
    'candidate without SKUs 422 `plan_has_no_skus`; a named subscription in another currency than the candidate 422 `currency_mismatch`.',
  request: mutationRequest(AttachShadowSchema),
  responses: { 201: jsonResponse('The attachment', ShadowAttachmentSchema) },
});

export const list = createRoute({
  method: 'get',
  path: '/admin/v1/shadow-billing/attachments',
  operationId: 'listShadowBillingAttachments',
  tags,
  summary: 'List shadow billing attachments',
  description: 'Newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers); `status` narrows to attached or detached ones.',
  request: { query: ListShadowAttachmentsQuerySchema },
  responses: { 200: pageResponse('One page of attachments', ShadowAttachmentSchema, 'ShadowAttachmentList') },
});

export const get = createRoute({
  method: 'get',
  path: '/admin/v1/shadow-billing/attachments/{id}',
  operationId: 'getShadowBillingAttachment',
  tags,
  summary: 'Get a shadow billing attachment',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The attachment', ShadowAttachmentSchema) },
});

export const detach = createRoute({
  method: 'delete',
  path: '/admin/v1/shadow-billing/attachments/{id}',
  operationId: 'detachShadowBilling',
  tags,
  summary: 'Detach a shadow billing attachment',
  description:
    'No period close is rated with its candidate any more; its results stay. Audited (shadow_billing.detached); detaching a detached ' +
    'attachment answers it as it is.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The attachment, detached', ShadowAttachmentSchema) },
});

export const variance = createRoute({
  method: 'get',
  path: '/admin/v1/shadow-billing/variance',
  operationId: 'getShadowBillingVariance',
  tags,
  summary: 'Shadow billing variance per customer and in total',
  description:
    'Over the closed periods starting in [from, to) (400 `validation_failed` unless to is after from): per customer and currency, and per ' +
    'currency in total, what the closes billed (actual), what the candidates rate (shadow) and shadow − actual, money in raw units; ' +
    'failed shadow ratings are counted, not summed. `format=csv` (or Accept: text/csv) answers CSV: one row per customer and currency, ' +
    'then a `total` row per currency.',
  request: { query: ShadowVarianceQuerySchema },
  responses: {
    200: {
      description: 'The variance',
      content: {
        'application/json': { schema: ShadowVarianceSchema },
        'text/csv': { schema: z.string().openapi({ description: 'RFC 4180 CSV with a header row' }) },
      },
    },
  },
});
