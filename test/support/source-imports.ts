/**
 * Reading the imports of the project's sources with the TypeScript compiler, shared by the tests that
 * check where code may reach (test/unit/architecture.test.ts, test/unit/persistence-boundaries.test.ts).
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCE_FILE = /\.(ts|mts|cts|js|mjs|cjs)$/;
/** Generated code (the Prisma client) is read by nobody here: it is a dependency, not a layer. */
const NOT_SCANNED = ['src/generated/'];

export interface ImportRef {
  specifier: string;
  typeOnly: boolean;
}

/** Every module a source file refers to, with whether the reference is erased at compile time. */
export function importsOf(fileName: string, source: string): ImportRef[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: ImportRef[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const allNamedTypes = clause !== undefined && clause.name === undefined && named !== undefined && named.length > 0 && named.every((e) => e.isTypeOnly);
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: clause?.isTypeOnly === true || allNamedTypes });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      const allNamedTypes = named !== undefined && named.length > 0 && named.every((e) => e.isTypeOnly);
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly || allNamedTypes });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      // A computed specifier cannot be checked: it is reported as its own text, which never resolves.
      found.push({ specifier: argument && ts.isStringLiteralLike(argument) ? argument.text : `<computed: ${argument?.getText(file) ?? ''}>`, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      found.push({ specifier: node.moduleReference.expression.text, typeOnly: node.isTypeOnly });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

export const toRepoPath = (absolute: string): string => relative(ROOT, absolute).split(sep).join('/');

/** The repository-relative file a relative specifier names (ESM '.js' names the '.ts' source), or undefined. */
export function resolveImport(fromFile: string, specifier: string): string | undefined {
  const base = resolve(ROOT, dirname(fromFile), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base, `${base}.ts`, join(base, 'index.ts')];
  const hit = candidates.find((candidate) => existsSync(candidate) && SOURCE_FILE.test(candidate));
  return hit === undefined ? undefined : toRepoPath(hit);
}

/** The source files under a folder (repository-relative), generated code left out. */
export function sourceFiles(folder: string): string[] {
  const absolute = join(ROOT, folder);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE_FILE.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => toRepoPath(join(entry.parentPath, entry.name)))
    .filter((path) => !NOT_SCANNED.some((prefix) => path.startsWith(prefix)));
}
