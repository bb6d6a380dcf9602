/**
 * Generates the part of the service's OpenAPI document that only the TypeScript types know:
 * for every controller route, the schema of what it answers (the return type of the handler,
 * unwrapped from Promise and HttpResult) and the request DTO classes its handler validates.
 * Writes src/infra/openapi/route-types.generated.json; the service assembles the document at
 * start from that file, Nest's route metadata and the DTOs' class-validator metadata
 * (src/infra/openapi/api-document.ts). `npm run openapi:generate` after changing a controller's
 * return type or a view; test/infra/openapi-generated.spec.ts fails while the file is stale.
 *
 * Usage: node scripts/run-ts.js scripts/openapi-generate.ts [--check]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import * as ts from 'typescript';
import { createGenerator } from 'ts-json-schema-generator';

const ROOT = resolve(__dirname, '..');
export const GENERATED_PATH = join(ROOT, 'src', 'infra', 'openapi', 'route-types.generated.json');
const HTTP_METHODS = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete']);

interface RouteTypes {
  /** `Controller.method` -> the answered schema (a $ref into schemas, or inline). */
  answers: Record<string, unknown>;
  /** `Controller.method` -> DTO class names its handler validates the body with. */
  bodies: Record<string, string[]>;
  /** `Controller.method` -> the query parameters its QueryReader accepts (src/infra/http/query-params.ts). */
  queries: Record<string, string[]>;
  /** Routes whose handler picks its status at run time (HttpResult): 202 for a signed action's first leg, or 200/201. */
  variableStatus: string[];
  schemas: Record<string, unknown>;
}

export function generateRouteTypes(): RouteTypes {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!config) throw new Error('tsconfig.json could not be read');
  const controllers = config.fileNames.filter((file) => file.startsWith(join(ROOT, 'src')) && /\.controller\.ts$/.test(file));
  const aliases: string[] = [];
  const imports: string[] = [];
  const bodies: Record<string, string[]> = {};
  const variable: string[] = [];
  const queries: Record<string, string[]> = {};
  const aliasByRoute = new Map<string, string>();

  for (const file of controllers.sort()) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const imported = importedNames(source);
    source.forEachChild((node) => {
      if (!ts.isClassDeclaration(node) || !node.name || !hasDecorator(node, (name) => name === 'Controller')) return;
      const className = node.name.text;
      for (const member of node.members) {
        if (!ts.isMethodDeclaration(member) || !ts.isIdentifier(member.name)) continue;
        if (!hasDecorator(member, (name) => HTTP_METHODS.has(name))) continue;
        const route = `${className}.${member.name.text}`;
        // A handler that delegates to a sibling (`return this.list(request, query)`) or to a function
        // of its file (`parseExecuteBody(body)`) validates and reads what they do.
        const siblings = calledSiblings(member, node);
        const helpers = [member, ...siblings].flatMap((method) => calledFunctions(method, source));
        const dtos = new Set<string>();
        for (const body of [member.body, ...siblings.map((sibling) => sibling.body), ...helpers.map((helper) => helper.body)]) {
          visit(body, (child) => {
            if (ts.isIdentifier(child) && /Dto$/.test(child.text)) dtos.add(child.text);
          });
        }
        if (dtos.size > 0) bodies[route] = [...dtos].sort();
        const names = [...new Set([member.body, ...siblings.map((sibling) => sibling.body)].flatMap((body) => queryNames(body)))];
        if (names.length > 0) queries[route] = names;
        if (member.type && /\bHttpResult\b/.test(member.type.getText(source))) variable.push(route);
        const answered = answeredTypeText(member.type, source);
        if (!answered) continue;
        const alias = `Answer_${className}_${member.name.text}`;
        aliasByRoute.set(route, alias);
        aliases.push(`export type ${alias} = ${answered};`);
        for (const name of identifiersIn(answered)) {
          const from = imported.get(name) ?? (exportedFrom(source, name) ? file : undefined);
          if (from) imports.push(`import type { ${name} } from '${from.replace(/\.ts$/, '')}';`);
        }
      }
    });
  }

  const dir = mkdtempSync(join(tmpdir(), 'openapi-routes-'));
  const entry = join(dir, 'routes.ts');
  writeFileSync(entry, `${[...new Set(imports)].join('\n')}\n${aliases.join('\n')}\n`);
  try {
    const generator = createGenerator({
      path: entry,
      tsconfig: join(ROOT, 'tsconfig.json'),
      type: '*',
      skipTypeCheck: true,
      expose: 'export',
      topRef: true,
      jsDoc: 'extended',
      extraTags: ['keepNull'],
      additionalProperties: false,
    });
    const schemas: Record<string, unknown> = {};
    const answers: Record<string, unknown> = {};
    for (const [route, alias] of aliasByRoute) {
      let definitions: Record<string, unknown>;
      try {
        definitions = (generator.createSchema(alias) as { definitions?: Record<string, unknown> }).definitions ?? {};
      } catch (error) {
        // A type the generator cannot read leaves the route's answer undescribed; say which.
        console.warn(`openapi-generate: no schema for ${route} (${alias}): ${String((error as Error).message ?? error).split('\n')[0]}`);
        continue;
      }
      for (const [name, schema] of Object.entries(definitions)) if (name !== alias) schemas[safeName(name)] = toWireSchema(schema);
      if (definitions[alias]) answers[route] = toWireSchema(definitions[alias]);
    }
    return { answers: sortKeys(answers), bodies: sortKeys(bodies), queries: sortKeys(queries), variableStatus: variable.sort(), schemas: sortKeys(schemas) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The answered body's type text: Promise<X> -> X, HttpResult<X> -> X, `A | HttpResult<A>` -> A. */
function answeredTypeText(type: ts.TypeNode | undefined, source: ts.SourceFile): string | undefined {
  if (!type) return undefined;
  const unwrap = (node: ts.TypeNode): ts.TypeNode[] => {
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
      const name = node.typeName.text;
      if ((name === 'Promise' || name === 'HttpResult') && node.typeArguments?.length === 1) return unwrap(node.typeArguments[0]);
      if (name === 'HttpResult') return [];
    }
    if (ts.isUnionTypeNode(node)) return node.types.flatMap(unwrap);
    return [node];
  };
  const parts = [...new Set(unwrap(type).map((node) => node.getText(source)))];
  if (parts.length === 0 || parts.some((part) => part === 'void' || part === 'unknown' || part === 'any')) return undefined;
  return parts.join(' | ');
}

function importedNames(source: ts.SourceFile): Map<string, string> {
  const names = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const specifier = statement.moduleSpecifier.text;
    if (!specifier.startsWith('.')) continue;
    const target = resolve(dirname(source.fileName), specifier);
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) names.set(element.name.text, `${target}.ts`);
  }
  return names;
}

function exportedFrom(source: ts.SourceFile, name: string): boolean {
  return source.statements.some(
    (statement) =>
      (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isClassDeclaration(statement)) &&
      statement.name?.text === name &&
      statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) === true,
  );
}

function identifiersIn(text: string): string[] {
  return [...new Set(text.match(/\b[A-Z][A-Za-z0-9_]*\b/g) ?? [])].filter((name) => !['Record', 'Array', 'Partial', 'Pick', 'Omit', 'Readonly'].includes(name));
}

function calledSiblings(member: ts.MethodDeclaration, owner: ts.ClassDeclaration): ts.MethodDeclaration[] {
  const called = new Set<string>();
  visit(member.body, (node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.expression.kind === ts.SyntaxKind.ThisKeyword) {
      called.add(node.expression.name.text);
    }
  });
  return owner.members.filter(
    (other): other is ts.MethodDeclaration => ts.isMethodDeclaration(other) && ts.isIdentifier(other.name) && called.has(other.name.text) && other !== member,
  );
}

function calledFunctions(method: ts.MethodDeclaration, source: ts.SourceFile): ts.FunctionDeclaration[] {
  const called = new Set<string>();
  visit(method.body, (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) called.add(node.expression.text);
  });
  return source.statements.filter((statement): statement is ts.FunctionDeclaration => ts.isFunctionDeclaration(statement) && !!statement.name && called.has(statement.name.text));
}

/** The names given to `new QueryReader(query, [...])` in a handler, with limit and cursor when it reads a page. */
function queryNames(body: ts.Node | undefined): string[] {
  const names: string[] = [];
  visit(body, (node) => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'QueryReader') {
      const list = node.arguments?.[1];
      if (list && ts.isArrayLiteralExpression(list)) for (const element of list.elements) if (ts.isStringLiteral(element)) names.push(element.text);
    }
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'page' && names.length > 0) names.push('limit', 'cursor');
  });
  return [...new Set(names)];
}

function hasDecorator(node: ts.Node, accept: (name: string) => boolean): boolean {
  return (ts.canHaveDecorators(node) ? ts.getDecorators(node) ?? [] : []).some((decorator) => {
    const expression = decorator.expression;
    return ts.isCallExpression(expression) && ts.isIdentifier(expression.expression) && accept(expression.expression.text);
  });
}

function visit(node: ts.Node | undefined, callback: (node: ts.Node) => void): void {
  if (!node) return;
  callback(node);
  node.forEachChild((child) => visit(child, callback));
}

/**
 * A draft-07 schema of a TypeScript type, as the wire carries it (src/infra/http/wire-json.ts):
 * a property that may be null is left out instead, so it is optional and never null; refs point
 * into components.schemas.
 */
function toWireSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toWireSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const source = schema as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    // Examples (`@example` JSDoc) are wire values already: kept as written, never read as schemas.
    if (key === 'examples') result.examples = value;
    else if (key === '$ref' && typeof value === 'string') result.$ref = `#/components/schemas/${safeName(decodeURIComponent(value.replace('#/definitions/', '')))}`;
    else if (key === 'properties' && value && typeof value === 'object') {
      const properties: Record<string, unknown> = {};
      const optional = new Set<string>();
      for (const [name, property] of Object.entries(value)) {
        // `@keepNull` on a property: the wire writes its null (wire-json.ts jsonNull), so it stays required and nullable.
        if ((property as { keepNull?: unknown })?.keepNull !== undefined) {
          const { keepNull: _kept, ...rest } = property as Record<string, unknown>;
          properties[name] = toWireSchema(rest);
          continue;
        }
        const stripped = withoutNull(property);
        if (stripped !== property) optional.add(name);
        properties[name] = toWireSchema(stripped);
      }
      result.properties = properties;
      if (Array.isArray(source.required)) {
        const required = (source.required as string[]).filter((name) => !optional.has(name));
        if (required.length > 0) result.required = required;
      }
    } else if (key !== 'required' && key !== '$schema') result[key] = toWireSchema(value);
  }
  return result;
}

/** The schema without its null alternative, or the same object when it has none. */
function withoutNull(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object') return schema;
  const value = schema as Record<string, unknown>;
  if (Array.isArray(value.type) && value.type.includes('null')) {
    const types = value.type.filter((type) => type !== 'null');
    return { ...value, type: types.length === 1 ? types[0] : types };
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = value[key];
    if (Array.isArray(options) && options.some((option) => (option as { type?: unknown })?.type === 'null')) {
      const rest = options.filter((option) => (option as { type?: unknown })?.type !== 'null');
      if (rest.length === 1) return { ...(rest[0] as object), ...Object.fromEntries(Object.entries(value).filter(([k]) => k !== key)) };
      return { ...value, [key]: rest };
    }
  }
  return schema;
}

/** Component names must match ^[a-zA-Z0-9._-]+$ (generic instances come out as `Page<X>`). */
function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/_+$/, '');
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

export function renderRouteTypes(routeTypes: RouteTypes): string {
  return `${JSON.stringify(routeTypes, null, 1)}\n`;
}

if (process.argv[1] === __filename) {
  const text = renderRouteTypes(generateRouteTypes());
  if (process.argv.includes('--check')) {
    const current = readFileSync(GENERATED_PATH, 'utf8');
    if (current !== text) {
      console.error(`${GENERATED_PATH} is stale: run npm run openapi:generate`);
      process.exit(1);
    }
  } else {
    writeFileSync(GENERATED_PATH, text);
    console.log(`wrote ${GENERATED_PATH}`);
  }
}
