/**
 * POST /admin/v1/rating/preview: rate usage quantities against a plan, optionally under contract
 * terms, with no side effects (nothing is written; see src/services/billing/rating-preview.ts).
 */
import { createRoute } from '@hono/zod-openapi';
import { RatingPreviewSchema } from '../../../schemas/rating.js';
import { jsonResponse, mutationRequest } from '../../helpers.js';
import { PreviewRequestSchema } from './schemas.js';

export const previewRoute = createRoute({
  method: 'post',
  path: '/admin/v1/rating/preview',
  operationId: 'previewRating',
  tags: ['Rating'],
  summary: 'Preview the rating of usage against a plan (no side effects)',
  description: `Rates the given quantities with the plan's SKUs and optional contract terms exactly as billing would, and writes
nothing. Lines follow the plan's SKUs in creation order; amounts are exact raw units, only \`display\` is rounded.

Periods crossing a ramp phase or escalation boundary: the period is split at every date inside it where a
contract term starts or ends or an escalation step falls (\`pieces\`), and each piece is rated under the terms in force
on it. Recurring fees (Flat, the commit of Committed) are prorated by the piece's days over the period's days.
Usage is priced under the terms of the piece in which it was consumed, with tiers counted over the whole period: give
the whole period's \`quantities\` and, in \`usage_to_date\`, the period-to-date quantities at each inner boundary. A
piece's usage charge is the full-period rating of the usage to its end minus that of the usage to its start, both under
the piece's terms (so a free first tier is granted once per period, and tier entry fees fall in the piece that enters
the tier). A split period without the usage to date at one of its boundaries is 400 \`usage_to_date_required\` naming
\`usage_to_date.<date>\`.

A dimensional SKU (one with group_by) rates one line per dimension value: give its quantities per value in
\`dimension_quantities\` (\`{sku_id, dimensions, quantity}\`, as the usage summary's \`dimensions\` lists them); each line carries
\`dimensions\`. An entry naming no dimensional SKU of the plan, or dimensions other than its group_by, is 400
\`invalid_dimension_quantity\`; the same value twice is 400 \`duplicate_dimension_quantity\`.

A quantity key that no usage SKU of the plan rates is 400 \`unknown_meter\`; every invalid input is one entry of
details.issues naming its field (e.g. \`quantities.api_calls\`, \`contract.terms.0.end_date\`). Unknown plan: 404
\`plan_not_found\`; a plan without SKUs: 422 \`plan_has_no_skus\`.`,
  request: mutationRequest(PreviewRequestSchema),
  responses: { 200: jsonResponse('The rated plan', RatingPreviewSchema) },
});
