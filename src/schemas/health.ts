/** The health report: whether the service's dependencies answer. */
import { z } from '@hono/zod-openapi';

export const CheckSchema = z.object({
  status: z.enum(['ok', 'down']),
  latency_ms: z.number().int(),
  error: z.string().optional(),
});

export type Check = z.infer<typeof CheckSchema>;

export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    checks: z.object({ database: CheckSchema, temporal: CheckSchema }),
    down: z.array(z.string()).openapi({ description: 'names of the dependencies that did not answer' }),
  })
  .openapi('Health');

export type Health = z.infer<typeof HealthSchema>;
