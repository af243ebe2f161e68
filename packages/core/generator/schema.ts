import { PdlError, type Field, type Json, type NamedDecl, type PdlFile, type Props, type TypeExpr } from './pdl';

/**
 * PDL declarations with every name resolved to its full name (imports, namespaces, inline declarations), records'
 * `includes` flattened into their fields (included fields first, as Pegasus orders them).
 */
export type RType =
  | { readonly k: 'primitive'; readonly name: Primitive }
  | { readonly k: 'named'; readonly name: string }
  | { readonly k: 'array'; readonly items: RType }
  | { readonly k: 'map'; readonly values: RType }
  | { readonly k: 'union'; readonly members: readonly RMember[] };

export type Primitive = 'int' | 'long' | 'float' | 'double' | 'boolean' | 'string' | 'bytes' | 'null';
export const PRIMITIVES: ReadonlySet<string> = new Set<Primitive>(['int', 'long', 'float', 'double', 'boolean', 'string', 'bytes', 'null']);

export interface RMember {
  /** The key the member's value is written under in Pegasus JSON: its alias, else its (dereferenced) type's key. */
  readonly key: string;
  readonly alias?: string;
  readonly type: RType;
}

export interface RField {
  readonly name: string;
  readonly type: RType;
  readonly optional: boolean;
  readonly default?: Json;
  readonly props: Props;
}

export type RDecl =
  | { readonly kind: 'record'; readonly name: string; readonly props: Props; readonly fields: readonly RField[] }
  | { readonly kind: 'enum'; readonly name: string; readonly props: Props; readonly symbols: readonly string[] }
  | { readonly kind: 'typeref'; readonly name: string; readonly props: Props; readonly ref: RType }
  | { readonly kind: 'fixed'; readonly name: string; readonly props: Props; readonly size: number };

interface Declared {
  readonly decl: NamedDecl;
  readonly file: PdlFile;
  /** The path of the file that declares it (inline declarations share their file). */
  readonly path: string;
}

const fullName = (name: string, namespace: string | undefined) => (name.includes('.') || !namespace ? name : `${namespace}.${name}`);
const namespaceOf = (name: string) => name.slice(0, Math.max(0, name.lastIndexOf('.')));

/** Every named type of a set of PDL files, by full name, and how to resolve what they reference. */
export class Schemas {
  private readonly declared = new Map<string, Declared>();
  private readonly resolved = new Map<string, RDecl>();

  constructor(files: ReadonlyMap<string, PdlFile>) {
    for (const [path, file] of files) this.register(file.decl, file.namespace, file, path);
  }

  private register(decl: NamedDecl, namespace: string | undefined, file: PdlFile, path: string): void {
    const name = fullName(decl.name, namespace);
    if (this.declared.has(name)) throw new PdlError(`${path}: ${name} is declared twice`);
    this.declared.set(name, { decl, file, path });
    const inner = namespaceOf(name);
    const visit = (type: TypeExpr): void => {
      if (type.kind === 'decl') this.register(type.decl, inner, file, path);
      else if (type.kind === 'array') visit(type.items);
      else if (type.kind === 'map') [type.keys, type.values].forEach(visit);
      else if (type.kind === 'union') type.members.forEach((m) => visit(m.type));
    };
    if (decl.kind === 'record') [...decl.includes, ...decl.fields.map((f) => f.type)].forEach(visit);
    else if (decl.kind === 'typeref') visit(decl.ref);
  }

  has(name: string): boolean {
    return this.declared.has(name);
  }

  /** The file that declares a named type. */
  pathOf(name: string): string {
    return this.lookup(name).path;
  }

  names(): IterableIterator<string> {
    return this.declared.keys();
  }

  private lookup(name: string): Declared {
    const found = this.declared.get(name);
    if (!found) throw new PdlError(`unknown type ${name}`);
    return found;
  }

  /** A name as written in a declaration of `owner`'s file, as a full name or a primitive. */
  private resolveName(name: string, owner: string): string {
    if (PRIMITIVES.has(name)) return name;
    const { file, path } = this.lookup(owner);
    if (name.includes('.')) {
      if (this.declared.has(name)) return name;
    } else {
      const imported = file.imports.find((i) => i.endsWith(`.${name}`));
      if (imported && this.declared.has(imported)) return imported;
      for (const namespace of new Set([namespaceOf(owner), file.namespace])) {
        const candidate = fullName(name, namespace);
        if (this.declared.has(candidate)) return candidate;
      }
    }
    throw new PdlError(`${path}: cannot resolve ${name} (in ${owner})`);
  }

  private resolveType(type: TypeExpr, owner: string): RType {
    switch (type.kind) {
      case 'name': {
        const name = this.resolveName(type.name, owner);
        return PRIMITIVES.has(name) ? { k: 'primitive', name: name as Primitive } : { k: 'named', name };
      }
      case 'decl':
        return { k: 'named', name: fullName(type.decl.name, namespaceOf(owner)) };
      case 'array':
        return { k: 'array', items: this.resolveType(type.items, owner) };
      case 'map':
        return { k: 'map', values: this.resolveType(type.values, owner) };
      case 'union':
        return {
          k: 'union',
          members: type.members.map((m) => {
            const memberType = this.resolveType(m.type, owner);
            return { key: m.alias ?? this.memberKey(memberType), ...(m.alias ? { alias: m.alias } : {}), type: memberType };
          }),
        };
    }
  }

  /** Pegasus's union member key of a type: a typeref stands for the type it names. */
  memberKey(type: RType): string {
    if (type.k === 'primitive') return type.name;
    if (type.k === 'array' || type.k === 'map') return type.k;
    if (type.k === 'union') return 'union';
    const decl = this.get(type.name);
    return decl.kind === 'typeref' ? this.memberKey(decl.ref) : decl.name;
  }

  /** The declaration with its names resolved; a record's fields include those of the records it includes. */
  get(name: string): RDecl {
    let decl = this.resolved.get(name);
    if (!decl) {
      decl = this.resolve(name);
      this.resolved.set(name, decl);
    }
    return decl;
  }

  private resolve(name: string): RDecl {
    const { decl } = this.lookup(name);
    switch (decl.kind) {
      case 'record': {
        const included = decl.includes.flatMap((type) => {
          const target = this.resolveType(type, name);
          const record = target.k === 'named' ? this.derefDecl(target.name) : undefined;
          if (record?.kind !== 'record') throw new PdlError(`${name} includes ${JSON.stringify(type)}, not a record`);
          return record.fields;
        });
        const own = decl.fields.map((f) => this.field(f, name));
        return { kind: 'record', name, props: decl.props, fields: [...included, ...own] };
      }
      case 'enum':
        return { kind: 'enum', name, props: decl.props, symbols: decl.symbols.map((s) => s.name) };
      case 'typeref':
        return { kind: 'typeref', name, props: decl.props, ref: this.resolveType(decl.ref, name) };
      case 'fixed':
        return { kind: 'fixed', name, props: decl.props, size: decl.size };
    }
  }

  private field(field: Field, owner: string): RField {
    return {
      name: field.name,
      type: this.resolveType(field.type, owner),
      optional: field.optional,
      ...(field.default === undefined ? {} : { default: field.default }),
      props: field.props,
    };
  }

  /** A named type followed through typerefs to what it finally names. */
  derefDecl(name: string): RDecl {
    const decl = this.get(name);
    return decl.kind === 'typeref' && decl.ref.k === 'named' ? this.derefDecl(decl.ref.name) : decl;
  }

  /** A type followed through typerefs. */
  deref(type: RType): RType {
    if (type.k !== 'named') return type;
    const decl = this.get(type.name);
    return decl.kind === 'typeref' ? this.deref(decl.ref) : type;
  }

  /** The named types a type reaches (itself included), each once. */
  closure(roots: Iterable<string>): Set<string> {
    const seen = new Set<string>();
    const visitType = (type: RType): void => {
      if (type.k === 'named') visitName(type.name);
      else if (type.k === 'array') visitType(type.items);
      else if (type.k === 'map') visitType(type.values);
      else if (type.k === 'union') type.members.forEach((m) => visitType(m.type));
    };
    const visitName = (name: string): void => {
      if (seen.has(name)) return;
      seen.add(name);
      const decl = this.get(name);
      if (decl.kind === 'record') decl.fields.forEach((f) => visitType(f.type));
      else if (decl.kind === 'typeref') visitType(decl.ref);
      // A record's included records are facts of its file too.
      const source = this.lookup(name).decl;
      if (source.kind === 'record') for (const inc of source.includes) visitType(this.resolveType(inc, name));
    };
    for (const root of roots) visitName(root);
    return seen;
  }
}
