import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_SCHEMA, RULE_LIST } from '@aiwg-cite/core';
import { PROJECT_ROOT } from '@aiwg-cite/test-utils';
import { toJsonSchema } from '@valibot/to-json-schema';
import { describe, expect, it } from 'vitest';

const FILE = join(PROJECT_ROOT, 'packages/cli/schema/aiwg-cite.schema.json');

/** The JSON Schema generated from the valibot schema the CLI validates with. */
function generated(): string {
  const schema = toJsonSchema(CONFIG_SCHEMA, { target: 'draft-07' });
  return `${JSON.stringify({ ...schema, title: 'aiwg-cite configuration' }, null, 2)}\n`;
}

describe('the published JSON Schema of the configuration', () => {
  it('equals the one generated from the schema the CLI validates with (UPDATE=1 rewrites it)', () => {
    if (process.env.UPDATE === '1') writeFileSync(FILE, generated());
    expect(readFileSync(FILE, 'utf8')).toBe(generated());
  });

  it('names every rule id and alias, and forbids other keys', () => {
    const schema = JSON.parse(readFileSync(FILE, 'utf8'));
    expect(schema.additionalProperties).toBe(false);
    const rules = schema.properties.rules;
    expect(rules.additionalProperties).toBe(false);
    for (const rule of RULE_LIST) {
      expect(rules.properties[rule.id]?.enum, rule.id).toEqual(['off', 'info', 'warning', 'error']);
      for (const alias of rule.aliases) expect(rules.properties[alias.id]?.description, alias.id).toMatch(/^Deprecated/);
    }
  });

  it('is shipped in the package', () => {
    const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'packages/cli/package.json'), 'utf8'));
    expect(manifest.files).toContain('schema');
  });
});
