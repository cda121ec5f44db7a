// The Admin API's list of known event names (a subscription must name one) is the AsyncAPI catalog's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { expect, it } from 'vitest';
import { webhookEvents } from '../../generated/webhooks/catalog.js';
import { specDir } from '../../scripts/lib/repo.js';

it('KnownEventName lists exactly the events of the AsyncAPI document', () => {
  const schema = YAML.parse(readFileSync(path.join(specDir, 'openapi/components/schemas/KnownEventName.yaml'), 'utf8'));
  expect([...schema.enum].sort()).toEqual(webhookEvents.map((e) => e.event).sort());
});
