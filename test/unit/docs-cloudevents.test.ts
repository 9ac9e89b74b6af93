/**
 * The CloudEvents section of docs/usage-and-metering.md says what the code does: its media types are
 * the routes', and each attribute of its mapping table lands in the event field it names.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/dev/paths.js';
import { CLOUD_EVENT_BATCH_MEDIA_TYPE, CLOUD_EVENT_MEDIA_TYPE } from '../../src/http/routes/events/routes.js';
import { CloudEventSchema } from '../../src/http/routes/events/schemas.js';
import { fromCloudEvent, type CloudEventInput } from '../../src/services/metering/events.js';

const section = async (): Promise<string> => {
  const text = await readFile(path.join(PROJECT_ROOT, 'docs', 'usage-and-metering.md'), 'utf8');
  const start = text.indexOf('## Sending usage as CloudEvents');
  expect(start).toBeGreaterThanOrEqual(0);
  const next = text.indexOf('\n## ', start + 1);
  return text.slice(start, next === -1 ? undefined : next);
};

describe('the CloudEvents documentation', () => {
  it('names the media types the event routes take', async () => {
    const docs = await section();
    expect(docs).toContain(`\`POST /v1/events\` | \`application/json\` | \`${CLOUD_EVENT_MEDIA_TYPE}\``);
    expect(docs).toContain(`\`POST /v1/events/batch\` | \`application/json\` (\`{"events": [...]}\`) | \`${CLOUD_EVENT_BATCH_MEDIA_TYPE}\``);
  });

  it('maps every attribute to the field the code puts it in', async () => {
    const docs = await section();
    const rows = [...docs.matchAll(/^\| `(\w+)`(?: \(extension attribute\))? \| `(\w+)`/gm)].map(([, attribute, field]) => [attribute!, field!] as const);
    const event = CloudEventSchema.parse({
      specversion: '1.0',
      id: 'evt-1',
      source: '//gateway',
      type: 'api_calls',
      subject: '0192f000-0000-7000-8000-0000000000c1',
      time: '2026-01-05T00:00:00.000Z',
      data: { quantity: 3 },
      subscriptionid: '0192f000-0000-7000-8000-0000000000e1',
    }) as CloudEventInput;
    const mapped = fromCloudEvent(event) as unknown as Record<string, unknown>;
    const documented = rows;
    expect(documented.map(([attribute]) => attribute).sort()).toEqual(['data', 'id', 'subject', 'subscriptionid', 'time', 'type']);
    for (const [attribute, field] of documented) {
      expect(mapped[field], `${attribute} → ${field}`).toEqual((event as unknown as Record<string, unknown>)[attribute]);
    }
    // The two rows that name no field: source is kept as the event's source, specversion is checked.
    expect(docs).toContain('| `source` | stored with the event |');
    expect(mapped.source).toBe('//gateway');
    expect(docs).toContain('| `specversion` | must be `"1.0"` |');
    expect(CloudEventSchema.safeParse({ ...event, specversion: '0.3' }).success).toBe(false);
  });
});
