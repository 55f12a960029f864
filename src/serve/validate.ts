/**
 * A small JSON Schema validator for the subset the contract uses: `type` (object, string,
 * integer, number, boolean, array), `properties`, `required`, `additionalProperties` (a boolean),
 * `minLength`/`maxLength` (in code points, as JSON Schema counts), `pattern`, `enum` (of
 * strings), `minimum`/`maximum`, `items`, `minItems`/`maxItems`, `oneOf`, and the annotations
 * `description`, `title`, `default`, `examples`, `$comment`. `checkSchema` refuses any other keyword, so a contract edit
 * can never make the server skip a check it silently does not know.
 */

export type JsonSchema = Readonly<Record<string, unknown>>;

const TYPES = new Set(["object", "string", "integer", "number", "boolean", "array"]);

const KEYWORDS: Readonly<Record<string, (value: unknown) => boolean>> = {
  type: (v) => typeof v === "string" && TYPES.has(v),
  properties: (v) => isPlainObject(v),
  required: (v) => Array.isArray(v) && v.every((x) => typeof x === "string"),
  additionalProperties: (v) => typeof v === "boolean",
  minLength: isCount,
  maxLength: isCount,
  minimum: (v) => typeof v === "number" && Number.isFinite(v),
  maximum: (v) => typeof v === "number" && Number.isFinite(v),
  enum: (v) => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string"),
  pattern: isRegExp,
  oneOf: (v) => Array.isArray(v) && v.length > 1,
  items: (v) => isPlainObject(v),
  minItems: isCount,
  maxItems: isCount,
  description: (v) => typeof v === "string",
  title: (v) => typeof v === "string",
  default: () => true,
  examples: (v) => Array.isArray(v),
  $comment: (v) => typeof v === "string",
};

function isRegExp(v: unknown): boolean {
  if (typeof v !== "string") return false;
  try {
    new RegExp(v, "u");
    return true;
  } catch {
    return false;
  }
}

function isCount(v: unknown): boolean {
  return typeof v === "number" && Number.isInteger(v) && v >= 0;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Checks that `schema` uses only the supported subset, recursively; returns the problems found
 * (empty when the schema is usable), each naming its place as a JSON path.
 */
export function checkSchema(schema: unknown, path = "$"): string[] {
  if (!isPlainObject(schema)) return [`${path}: a schema must be an object`];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    const ok = KEYWORDS[key];
    if (!ok) problems.push(`${path}: unsupported keyword "${key}"`);
    else if (!ok(value)) problems.push(`${path}.${key}: unusable value ${JSON.stringify(value)}`);
  }
  if (isPlainObject(schema.properties)) {
    for (const [name, sub] of Object.entries(schema.properties)) {
      problems.push(...checkSchema(sub, `${path}.properties.${name}`));
    }
  }
  if (Array.isArray(schema.required) && isPlainObject(schema.properties)) {
    for (const name of schema.required) {
      if (typeof name === "string" && !Object.hasOwn(schema.properties, name)) {
        problems.push(`${path}.required: "${name}" is not a property`);
      }
    }
  }
  if (schema.items !== undefined) problems.push(...checkSchema(schema.items, `${path}.items`));
  if (Array.isArray(schema.oneOf)) {
    schema.oneOf.forEach((b, i) => problems.push(...checkSchema(b, `${path}.oneOf[${i}]`)));
  }
  return problems;
}

/** Counts code points, as JSON Schema's minLength/maxLength do (not UTF-16 units). */
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number" && Number.isInteger(value)) return "an integer";
  return `a ${typeof value}`;
}

/** Property names printed as `$.name` when plain, `$["odd name"]` otherwise. */
function child(path: string, name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`;
}

/**
 * Validates `value` against `schema` (already accepted by `checkSchema`); returns the problems,
 * each as "<JSON path>: <what is wrong>", or an empty list when the value conforms. A schema
 * without `type` (a `oneOf` branch such as `{"required": ["summary"]}`) applies its other
 * keywords to the values they concern.
 */
export function validate(schema: JsonSchema, value: unknown, path = "$"): string[] {
  const type = schema.type as string | undefined;
  if (type !== undefined) {
    const wrong = typeProblem(type, value, path);
    if (wrong) return [wrong];
  }
  const problems: string[] = [];
  if (isPlainObject(value)) problems.push(...objectProblems(schema, value, path));
  else if (typeof value === "string") problems.push(...stringProblems(schema, value, path));
  else if (typeof value === "number") problems.push(...numberProblems(schema, value, path));
  else if (Array.isArray(value)) problems.push(...arrayProblems(schema, value, path));
  const branches = schema.oneOf as JsonSchema[] | undefined;
  if (branches && problems.length === 0) {
    const passing = branches.filter((b) => validate(b, value, path).length === 0).length;
    if (passing !== 1) {
      const alternatives = branches.map(describeBranch).join(" | ");
      problems.push(`${path}: must match exactly one of: ${alternatives} (matches ${passing})`);
    }
  }
  return problems;
}

function typeProblem(type: string, value: unknown, path: string): string | null {
  switch (type) {
    case "object":
      return isPlainObject(value) ? null : `${path}: expected an object, got ${describe(value)}`;
    case "string":
      return typeof value === "string" ? null : `${path}: expected a string, got ${describe(value)}`;
    case "integer":
      if (typeof value === "number" && Number.isInteger(value)) return null;
      return `${path}: expected an integer, got ${typeof value === "number" ? value : describe(value)}`;
    case "number":
      return typeof value === "number" && Number.isFinite(value)
        ? null
        : `${path}: expected a number, got ${describe(value)}`;
    case "boolean":
      return typeof value === "boolean" ? null : `${path}: expected a boolean, got ${describe(value)}`;
    case "array":
      return Array.isArray(value) ? null : `${path}: expected an array, got ${describe(value)}`;
    default:
      return `${path}: the schema's type "${type}" is not supported`;
  }
}

function objectProblems(schema: JsonSchema, value: Record<string, unknown>, path: string): string[] {
  const problems: string[] = [];
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const name of (schema.required ?? []) as string[]) {
    if (!Object.hasOwn(value, name)) problems.push(`${child(path, name)}: is required`);
  }
  for (const [name, v] of Object.entries(value)) {
    const sub = Object.hasOwn(props, name) ? props[name] : undefined;
    if (sub) problems.push(...validate(sub, v, child(path, name)));
    else if (schema.additionalProperties === false) {
      problems.push(`${child(path, name)}: is not a known property`);
    }
  }
  return problems;
}

function stringProblems(schema: JsonSchema, value: string, path: string): string[] {
  const len = codePoints(value);
  const min = schema.minLength as number | undefined;
  const max = schema.maxLength as number | undefined;
  if (min !== undefined && len < min) return [`${path}: must be at least ${min} character(s), got ${len}`];
  if (max !== undefined && len > max) return [`${path}: must be at most ${max} characters, got ${len}`];
  const pattern = schema.pattern as string | undefined;
  if (pattern !== undefined && !new RegExp(pattern, "u").test(value)) {
    return [`${path}: must match the pattern ${pattern}`];
  }
  const options = schema.enum as string[] | undefined;
  if (options && !options.includes(value)) {
    return [`${path}: must be one of ${options.map((o) => JSON.stringify(o)).join(", ")}`];
  }
  return [];
}

function numberProblems(schema: JsonSchema, value: number, path: string): string[] {
  const min = schema.minimum as number | undefined;
  const max = schema.maximum as number | undefined;
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    const range = min !== undefined && max !== undefined
      ? `between ${min} and ${max}`
      : min !== undefined
      ? `at least ${min}`
      : `at most ${max}`;
    return [`${path}: must be ${range}, got ${value}`];
  }
  return [];
}

function arrayProblems(schema: JsonSchema, value: unknown[], path: string): string[] {
  const min = schema.minItems as number | undefined;
  const max = schema.maxItems as number | undefined;
  if (min !== undefined && value.length < min) return [`${path}: needs at least ${min} item(s)`];
  if (max !== undefined && value.length > max) return [`${path}: takes at most ${max} items`];
  const items = schema.items as JsonSchema | undefined;
  return items ? value.flatMap((v, i) => validate(items, v, `${path}[${i}]`)) : [];
}

/** A oneOf branch in words: its required properties, or its type. */
function describeBranch(branch: JsonSchema): string {
  const required = branch.required as string[] | undefined;
  if (required && required.length > 0) return `{${required.join(", ")}}`;
  return typeof branch.type === "string" ? branch.type : "a schema";
}
