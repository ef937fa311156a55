/**
 * The names generated TypeScript files use without importing them: TypeScript's lib and Node's
 * globals they refer to (`Promise`, `Record`, `Error`, …), and the names they declare in their
 * own scopes without exporting them (type parameters such as `Principal`, module-level helpers,
 * locals). A proto message, enum or RPC of one of these names must not change what they mean:
 * the plugin's reserved-name table (plugin/src/emit/reserved-names.ts) has to hold all of them.
 */
import { Project, ts } from "ts-morph";

/** What {@link generatedScopeNames} found, each sorted. */
export interface GeneratedScopeNames {
  /** Globals of TypeScript's lib or of @types/node the files refer to. */
  readonly globals: readonly string[];
  /** Type parameters and unexported declarations (module level or local) of the files. */
  readonly locals: readonly string[];
  /** Names imported from packages (`@protoc-gen-a2a/runtime`, `@bufbuild/protobuf`, …), not from other generated files. */
  readonly imports: readonly string[];
}

/** Whether a declaration comes from TypeScript's lib or @types/node (a global, not a module's export). */
function isGlobalDeclaration(declaration: ts.Declaration): boolean {
  const file = declaration.getSourceFile();
  if (!file.isDeclarationFile) return false;
  const path = file.fileName.replace(/\\/g, "/");
  return /\/typescript\/lib\/lib\.[^/]*\.d\.ts$/.test(path) || path.includes("/@types/node/");
}

/** An identifier that names a property or member (after `.`, in an object literal key, a member name), not a scope binding. */
function isMemberName(id: ts.Identifier): boolean {
  const parent = id.parent;
  if (ts.isPropertyAccessExpression(parent)) return parent.name === id;
  if (ts.isQualifiedName(parent)) return parent.right === id;
  if (
    ts.isPropertyAssignment(parent) ||
    ts.isPropertySignature(parent) ||
    ts.isPropertyDeclaration(parent) ||
    ts.isMethodSignature(parent) ||
    ts.isMethodDeclaration(parent) ||
    ts.isGetAccessorDeclaration(parent) ||
    ts.isSetAccessorDeclaration(parent) ||
    ts.isEnumMember(parent)
  ) {
    return parent.name === id;
  }
  if (ts.isBindingElement(parent)) return parent.propertyName === id;
  if (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent)) return true;
  if (ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent)) return true;
  return false;
}

/** Whether a declaration is exported from its module (its name is the module's, so protoplugin already keeps imports clear of it). */
function isExported(node: ts.Node): boolean {
  let at: ts.Node | undefined = node;
  while (at !== undefined && !ts.isSourceFile(at.parent)) at = at.parent;
  if (at === undefined) return false;
  if (at !== node && !ts.isVariableStatement(at)) return false;
  return (
    ts.canHaveModifiers(at) &&
    (ts.getModifiers(at) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  );
}

/** A name the file declares itself: type parameters, parameters, variables, functions, classes, interfaces, types. */
function declaredName(node: ts.Node): string | undefined {
  if (
    (ts.isTypeParameterDeclaration(node) ||
      ts.isParameter(node) ||
      ts.isVariableDeclaration(node) ||
      ts.isBindingElement(node) ||
      ts.isFunctionDeclaration(node) ||
      ts.isClassDeclaration(node) ||
      ts.isInterfaceDeclaration(node) ||
      ts.isTypeAliasDeclaration(node)) &&
    node.name !== undefined &&
    ts.isIdentifier(node.name)
  ) {
    return isExported(node) ? undefined : node.name.text;
  }
  return undefined;
}

/**
 * Reads generated files with the type checker (the runtime from its sources) and returns the
 * globals they refer to and the names they declare without exporting.
 */
export function generatedScopeNames(files: readonly string[]): GeneratedScopeNames {
  const project = new Project({
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ["lib.es2023.d.ts"],
      types: ["node"],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      customConditions: ["@protoc-gen-a2a/source"],
    },
  });
  project.addSourceFilesAtPaths([...files]);
  const program = project.getProgram().compilerObject;
  const checker = program.getTypeChecker();
  const globals = new Set<string>();
  const locals = new Set<string>();
  const imports = new Set<string>();
  for (const path of files) {
    const source = program.getSourceFile(path);
    if (source === undefined) throw new Error(`not in the program: ${path}`);
    for (const statement of source.statements) {
      if (
        !ts.isImportDeclaration(statement) ||
        !ts.isStringLiteral(statement.moduleSpecifier) ||
        statement.moduleSpecifier.text.startsWith(".")
      )
        continue;
      const bindings = statement.importClause?.namedBindings;
      if (bindings !== undefined && ts.isNamedImports(bindings))
        for (const element of bindings.elements)
          imports.add((element.propertyName ?? element.name).text);
    }
    const visit = (node: ts.Node): void => {
      const declared = declaredName(node);
      if (declared !== undefined) locals.add(declared);
      if (ts.isIdentifier(node) && !isMemberName(node)) {
        const symbol = checker.getSymbolAtLocation(node);
        const declarations = symbol?.getDeclarations() ?? [];
        if (
          symbol !== undefined &&
          (symbol.flags & ts.SymbolFlags.Alias) === 0 &&
          declarations.length > 0 &&
          declarations.every(isGlobalDeclaration)
        ) {
          globals.add(node.text);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { globals: [...globals].sort(), locals: [...locals].sort(), imports: [...imports].sort() };
}
