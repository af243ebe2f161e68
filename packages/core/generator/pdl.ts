/**
 * A reader and printer of Pegasus PDL schema files, enough for DataHub's model: records (with `includes`), enums,
 * typerefs, fixed, unions (aliased members too), arrays, maps, optional fields, defaults, namespaces and imports,
 * inline named types, and annotations (`@a.b = <json>`, a bare `@a` meaning true). Commas are whitespace in PDL.
 *
 * The printer writes the facts back (names, types, annotations) without doc comments: `model:update` vendors
 * DataHub's files through it, and the generator reads the vendored files with the same reader.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Props = { [key: string]: Json };

export type TypeExpr =
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'array'; readonly items: TypeExpr }
  | { readonly kind: 'map'; readonly keys: TypeExpr; readonly values: TypeExpr }
  | { readonly kind: 'union'; readonly members: readonly UnionMember[] }
  | { readonly kind: 'decl'; readonly decl: NamedDecl };

export interface UnionMember {
  readonly alias?: string;
  readonly type: TypeExpr;
  readonly props: Props;
}

export interface Field {
  readonly name: string;
  readonly type: TypeExpr;
  readonly optional: boolean;
  readonly default?: Json;
  readonly props: Props;
}

export interface EnumSymbol {
  readonly name: string;
  readonly props: Props;
}

export type NamedDecl =
  | {
      readonly kind: 'record';
      readonly name: string;
      readonly props: Props;
      readonly includes: readonly TypeExpr[];
      readonly fields: readonly Field[];
    }
  | { readonly kind: 'enum'; readonly name: string; readonly props: Props; readonly symbols: readonly EnumSymbol[] }
  | { readonly kind: 'typeref'; readonly name: string; readonly props: Props; readonly ref: TypeExpr }
  | { readonly kind: 'fixed'; readonly name: string; readonly props: Props; readonly size: number };

export interface PdlFile {
  readonly namespace?: string;
  readonly imports: readonly string[];
  readonly decl: NamedDecl;
}

export class PdlError extends Error {
  override name = 'PdlError';
}

type Token =
  | { readonly t: 'ident'; readonly v: string; readonly at: number }
  | { readonly t: 'string'; readonly v: string; readonly at: number }
  | { readonly t: 'number'; readonly v: number; readonly at: number }
  | { readonly t: 'punct'; readonly v: string; readonly at: number }
  | { readonly t: 'end'; readonly v: ''; readonly at: number };

const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const fail = (message: string): never => {
    throw new PdlError(`${message} at offset ${i}`);
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === ',' || c === '\uFEFF') {
      i++;
    } else if (text.startsWith('//', i)) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end + 1;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) fail('unterminated comment');
      i = end + 2;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) fail('unterminated string');
      tokens.push({ t: 'string', v: JSON.parse(text.slice(i, j + 1)) as string, at: i });
      i = j + 1;
    } else if (c === '`') {
      const end = text.indexOf('`', i + 1);
      if (end < 0) fail('unterminated escaped name');
      tokens.push({ t: 'ident', v: text.slice(i + 1, end), at: i });
      i = end + 1;
    } else if ('{}[]():=@.'.includes(c)) {
      tokens.push({ t: 'punct', v: c, at: i });
      i++;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text) ?? fail('bad number');
      tokens.push({ t: 'number', v: Number(m[0]), at: i });
      i += m[0].length;
    } else {
      IDENT.lastIndex = i;
      const m = IDENT.exec(text) ?? fail(`unexpected character ${JSON.stringify(c)}`);
      tokens.push({ t: 'ident', v: m[0], at: i });
      i += m[0].length;
    }
  }
  tokens.push({ t: 'end', v: '', at: text.length });
  return tokens;
}

const DECL_KEYWORDS = new Set(['record', 'enum', 'typeref', 'fixed']);

/** Parses one PDL file (one top-level named type). `where` names the file in errors. */
export function parsePdl(text: string, where = 'pdl'): PdlFile {
  const tokens = tokenize(text);
  let p = 0;
  const peek = (ahead = 0) => tokens[Math.min(p + ahead, tokens.length - 1)]!;
  const fail = (message: string): never => {
    throw new PdlError(`${where}: ${message} at offset ${peek().at}`);
  };
  const next = () => tokens[p++] ?? fail('unexpected end');
  const isPunct = (v: string, ahead = 0) => peek(ahead).t === 'punct' && peek(ahead).v === v;
  const isWord = (v: string, ahead = 0) => peek(ahead).t === 'ident' && peek(ahead).v === v;
  const expectPunct = (v: string) => {
    if (!isPunct(v)) fail(`expected '${v}'`);
    p++;
  };
  const ident = (): string => {
    const token = next();
    return token.t === 'ident' ? token.v : fail('expected a name');
  };

  function json(): Json {
    const token = next();
    if (token.t === 'string' || token.t === 'number') return token.v;
    if (token.t === 'ident') {
      if (token.v === 'true') return true;
      if (token.v === 'false') return false;
      if (token.v === 'null') return null;
      return fail(`unexpected word ${token.v} in a value`);
    }
    if (token.t === 'punct' && token.v === '[') {
      const items: Json[] = [];
      while (!isPunct(']')) items.push(json());
      p++;
      return items;
    }
    if (token.t === 'punct' && token.v === '{') {
      const object: { [key: string]: Json } = {};
      while (!isPunct('}')) {
        const key = next();
        if (key.t !== 'string' && key.t !== 'ident') fail('expected a key');
        expectPunct(':');
        object[String(key.v)] = json();
      }
      p++;
      return object;
    }
    return fail('expected a value');
  }

  /** `@a.b.c = value` / `@a` annotations, merged into one property object. */
  function annotations(): Props {
    const props: Props = {};
    while (isPunct('@')) {
      p++;
      const path = ident().split('.');
      while (isPunct('.')) {
        p++;
        path.push(ident());
      }
      let value: Json = true;
      if (isPunct('=')) {
        p++;
        value = json();
      }
      setPath(props, path, value);
    }
    return props;
  }

  function typeExpr(): TypeExpr {
    const props = annotations();
    const token = peek();
    if (token.t !== 'ident') return fail('expected a type');
    if (DECL_KEYWORDS.has(token.v)) return { kind: 'decl', decl: namedDecl(props) };
    if (Object.keys(props).length) fail('annotations on a type reference');
    p++;
    if ((token.v === 'array' || token.v === 'map' || token.v === 'union') && isPunct('[')) {
      p++;
      let type: TypeExpr;
      if (token.v === 'array') type = { kind: 'array', items: typeExpr() };
      else if (token.v === 'map') type = { kind: 'map', keys: typeExpr(), values: typeExpr() };
      else {
        const members: UnionMember[] = [];
        while (!isPunct(']')) {
          const memberProps = annotations();
          if (peek().t === 'ident' && isPunct(':', 1)) {
            const alias = ident();
            p++;
            members.push({ alias, type: typeExpr(), props: memberProps });
          } else members.push({ type: typeExpr(), props: memberProps });
        }
        type = { kind: 'union', members };
      }
      expectPunct(']');
      return type;
    }
    return { kind: 'name', name: token.v };
  }

  function namedDecl(props: Props): NamedDecl {
    const keyword = ident();
    const name = ident();
    if (keyword === 'record') {
      const includes: TypeExpr[] = [];
      if (isWord('includes')) {
        p++;
        while (!isPunct('{')) includes.push(typeExpr());
      }
      expectPunct('{');
      const fields: Field[] = [];
      while (!isPunct('}')) {
        const fieldProps = annotations();
        const fieldName = ident();
        expectPunct(':');
        const optional = isWord('optional');
        if (optional) p++;
        const type = typeExpr();
        let fallback: Json | undefined;
        if (isPunct('=')) {
          p++;
          fallback = json();
        }
        fields.push({ name: fieldName, type, optional, ...(fallback === undefined ? {} : { default: fallback }), props: fieldProps });
      }
      p++;
      return { kind: 'record', name, props, includes, fields };
    }
    if (keyword === 'enum') {
      expectPunct('{');
      const symbols: EnumSymbol[] = [];
      while (!isPunct('}')) {
        const symbolProps = annotations();
        symbols.push({ name: ident(), props: symbolProps });
      }
      p++;
      return { kind: 'enum', name, props, symbols };
    }
    if (keyword === 'typeref') {
      expectPunct('=');
      return { kind: 'typeref', name, props, ref: typeExpr() };
    }
    if (keyword === 'fixed') {
      const size = next();
      return size.t === 'number' ? { kind: 'fixed', name, props, size: size.v } : fail('expected the fixed size');
    }
    return fail(`unknown declaration ${keyword}`);
  }

  let namespace: string | undefined;
  if (isWord('namespace')) {
    p++;
    namespace = ident();
  }
  if (isWord('package')) {
    p += 2;
  }
  const imports: string[] = [];
  while (isWord('import')) {
    p++;
    imports.push(ident());
  }
  const decl = namedDecl(annotations());
  if (peek().t !== 'end') fail('text after the declaration');
  return { ...(namespace === undefined ? {} : { namespace }), imports, decl };
}

function setPath(props: Props, path: readonly string[], value: Json): void {
  let target = props;
  for (const key of path.slice(0, -1)) {
    const existing = target[key];
    if (typeof existing !== 'object' || existing === null || Array.isArray(existing)) target[key] = {};
    target = target[key] as Props;
  }
  const last = path.at(-1)!;
  const existing = target[last];
  // `@a = {...}` then `@a.b = x` (or the reverse) merge into one object.
  if (isObject(existing) && isObject(value)) target[last] = { ...existing, ...value };
  else target[last] = value;
}

const isObject = (value: Json | undefined): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// --- Printing ---------------------------------------------------------------------------------------------------

const SIMPLE_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const annotationName = (key: string) => (SIMPLE_NAME.test(key) ? key : `\`${key}\``);

function printProps(props: Props, indent: string): string {
  return Object.entries(props)
    .map(([key, value]) => `${indent}@${annotationName(key)}${value === true ? '' : ` = ${JSON.stringify(value)}`}\n`)
    .join('');
}

function printType(type: TypeExpr, indent: string): string {
  switch (type.kind) {
    case 'name':
      return type.name;
    case 'array':
      return `array[${printType(type.items, indent)}]`;
    case 'map':
      return `map[${printType(type.keys, indent)}, ${printType(type.values, indent)}]`;
    case 'union': {
      const inner = `${indent}  `;
      const members = type.members.map((m) => {
        const props = printProps(m.props, inner);
        return `${props}${inner}${m.alias ? `${m.alias}: ` : ''}${printType(m.type, inner)}`;
      });
      return `union[\n${members.join(',\n')}\n${indent}]`;
    }
    case 'decl':
      return printDecl(type.decl, indent, false);
  }
}

function printDecl(decl: NamedDecl, indent: string, topLevel: boolean): string {
  const props = printProps(decl.props, topLevel ? indent : `${indent}`);
  // An inline declaration's annotations go on lines of their own before it, at the field's indentation.
  const head = topLevel ? props : props ? `\n${props}${indent}` : '';
  const inner = `${indent}  `;
  switch (decl.kind) {
    case 'record': {
      const includes = decl.includes.length ? ` includes ${decl.includes.map((t) => printType(t, indent)).join(', ')}` : '';
      const fields = decl.fields.map((f) => {
        const fallback = f.default === undefined ? '' : ` = ${JSON.stringify(f.default)}`;
        return `${printProps(f.props, inner)}${inner}${f.name}: ${f.optional ? 'optional ' : ''}${printType(f.type, inner)}${fallback}\n`;
      });
      return `${head}record ${decl.name}${includes} {\n${fields.join('')}${indent}}`;
    }
    case 'enum': {
      const symbols = decl.symbols.map((s) => `${printProps(s.props, inner)}${inner}${s.name}\n`);
      return `${head}enum ${decl.name} {\n${symbols.join('')}${indent}}`;
    }
    case 'typeref':
      return `${head}typeref ${decl.name} = ${printType(decl.ref, indent)}`;
    case 'fixed':
      return `${head}fixed ${decl.name} ${decl.size}`;
  }
}

/** The file as PDL text: namespace, imports, the declaration; no comments. */
export function printPdl(file: PdlFile): string {
  const lines: string[] = [];
  if (file.namespace) lines.push(`namespace ${file.namespace}`, '');
  if (file.imports.length) lines.push(...file.imports.map((i) => `import ${i}`), '');
  lines.push(printDecl(file.decl, '', true));
  return `${lines.join('\n')}\n`;
}
