/**
 * Workflows read as orchestration (issue 29): each workflow type's function, the one
 * `workflows/<name>/index.ts` exports, stays at most MAX_WORKFLOW_LINES lines, its steps named in
 * the run class or helpers beside it; and its messages live beside it (`workflows/<name>/messages.ts`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from '../support/source-imports.js';

const MAX_WORKFLOW_LINES = 60;

/** The exported functions of a workflow folder's index.ts with their length in lines. */
function workflowFunctions(file: string): { name: string; lines: number }[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  return source.statements
    .filter((node): node is ts.FunctionDeclaration => ts.isFunctionDeclaration(node) && node.name !== undefined && (node.modifiers ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword))
    .map((node) => ({ name: node.name!.text, lines: lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1 }));
}

const workflowIndexes = sourceFiles('workflows').filter((file) => /^workflows\/[^/]+\/index\.ts$/.test(file));

describe('workflow shape', () => {
  it('finds the workflow folders', () => {
    expect(workflowIndexes.length).toBeGreaterThanOrEqual(10);
  });

  it.each(workflowIndexes)('%s: each workflow function is at most 60 lines, its messages beside it', (file) => {
    const functions = workflowFunctions(file);
    expect(functions.length, `${file} exports a workflow function`).toBeGreaterThan(0);
    expect(functions.filter((f) => f.lines > MAX_WORKFLOW_LINES).map((f) => `${f.name}: ${f.lines} lines`)).toEqual([]);
    expect(existsSync(join(ROOT, file.replace(/index\.ts$/, 'messages.ts'))), `${file}'s messages.ts`).toBe(true);
  });
});
