/**
 * What changed between two SDL texts, classified by GraphQL Inspector: breaking (clients' queries
 * may fail), dangerous (they may behave differently) and safe. `npm run schema:check` prints it.
 */
import { CriticalityLevel, diff, type Change } from '@graphql-inspector/core';
import { buildSchema } from 'graphql';

const LEVELS = [
  [CriticalityLevel.Breaking, 'breaking'],
  [CriticalityLevel.Dangerous, 'dangerous'],
  [CriticalityLevel.NonBreaking, 'safe'],
] as const;

export interface SchemaComparison {
  changes: Change[];
  breaking: number;
  /** One section per level that has changes; empty when the schemas are the same. */
  report: string;
}

export async function compareSchemas(committedSdl: string, currentSdl: string): Promise<SchemaComparison> {
  const changes = await diff(buildSchema(committedSdl), buildSchema(currentSdl));
  const sections = LEVELS.flatMap(([level, label]) => {
    const found = changes.filter((c) => c.criticality.level === level);
    if (!found.length) return [];
    const lines = found.map((c) => `  - ${c.message}${c.criticality.reason ? ` (${c.criticality.reason})` : ''}`);
    return [`${label} (${found.length}):\n${lines.join('\n')}`];
  });
  return {
    changes,
    breaking: changes.filter((c) => c.criticality.level === CriticalityLevel.Breaking).length,
    report: sections.join('\n'),
  };
}
