/**
 * JSONC (JSON with `//` and `/* *\/` comments and trailing commas) parser. Our own because the
 * usual npm one loads through Deno's CJS layer (~25 ms) and the config is read on the hint path.
 * Errors carry a 1-based line and column so a message can point into the file.
 */

export class JsoncSyntaxError extends SyntaxError {
  readonly line: number;
  readonly column: number;
  constructor(message: string, line: number, column: number) {
    super(`${message} at line ${line}, column ${column}`);
    this.name = "JsoncSyntaxError";
    this.line = line;
    this.column = column;
  }
}

/** An object holds the same key twice (JSON.parse would silently keep the last one). */
export class DuplicateKeyError extends JsoncSyntaxError {
  readonly key: string;
  constructor(key: string, line: number, column: number) {
    super(`Duplicate key "${key}"`, line, column);
    this.name = "DuplicateKeyError";
    this.key = key;
  }
}

/**
 * How deep objects and arrays may nest. Real settings files nest a few levels; a file nested
 * thousands deep is refused with its line and column instead of exhausting the stack.
 */
export const MAX_JSON_DEPTH = 256;

export function parseJsonc(text: string): unknown {
  const parser = new Parser(text);
  parser.skipSpace();
  const value = parser.value();
  parser.skipSpace();
  if (!parser.atEnd()) parser.fail("Unexpected text after the value");
  return value;
}

class Parser {
  private pos = 0;
  private depth = 0;
  constructor(private readonly text: string) {
    if (text.charCodeAt(0) === 0xfeff) this.pos = 1;
  }

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  fail(message: string, at = this.pos): never {
    const { line, column } = this.where(at);
    throw new JsoncSyntaxError(message, line, column);
  }

  where(at: number): { line: number; column: number } {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at && i < this.text.length; i++) {
      if (this.text[i] === "\n") {
        line++;
        lineStart = i + 1;
      }
    }
    return { line, column: at - lineStart + 1 };
  }

  skipSpace(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t[this.pos];
      if (c === " " || c === "\t" || c === "\n" || c === "\r") this.pos++;
      else if (c === "/" && t[this.pos + 1] === "/") {
        while (this.pos < t.length && t[this.pos] !== "\n") this.pos++;
      } else if (c === "/" && t[this.pos + 1] === "*") {
        const end = t.indexOf("*/", this.pos + 2);
        if (end === -1) this.fail("Unterminated block comment");
        this.pos = end + 2;
      } else break;
    }
  }

  value(): unknown {
    const c = this.text[this.pos];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') return this.string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    for (const [word, val] of [["true", true], ["false", false], ["null", null]] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return val;
      }
    }
    if (c === undefined) this.fail("Unexpected end of input, a value was expected");
    this.fail(`Unexpected character ${JSON.stringify(c)}, a value was expected`);
  }

  /** Enters an object or array; fails past MAX_JSON_DEPTH. */
  private enter(): void {
    if (++this.depth > MAX_JSON_DEPTH) this.fail(`Nested deeper than ${MAX_JSON_DEPTH} levels`);
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.enter();
    this.pos++;
    this.skipSpace();
    while (this.text[this.pos] !== "}") {
      if (this.text[this.pos] !== '"') {
        this.fail(this.atEnd() ? "Unclosed object, '}' expected" : "Property name expected");
      }
      const keyAt = this.pos;
      const key = this.string();
      if (Object.hasOwn(out, key)) {
        const { line, column } = this.where(keyAt);
        throw new DuplicateKeyError(key, line, column);
      }
      this.skipSpace();
      if (this.text[this.pos] !== ":") this.fail("':' expected after the property name");
      this.pos++;
      this.skipSpace();
      out[key] = this.value();
      this.skipSpace();
      if (this.text[this.pos] === ",") {
        this.pos++;
        this.skipSpace();
      } else if (this.text[this.pos] !== "}") {
        this.fail(this.atEnd() ? "Unclosed object, '}' expected" : "',' or '}' expected");
      }
    }
    this.pos++;
    this.depth--;
    return out;
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.enter();
    this.pos++;
    this.skipSpace();
    while (this.text[this.pos] !== "]") {
      if (this.atEnd()) this.fail("Unclosed array, ']' expected");
      out.push(this.value());
      this.skipSpace();
      if (this.text[this.pos] === ",") {
        this.pos++;
        this.skipSpace();
      } else if (this.text[this.pos] !== "]") {
        this.fail(this.atEnd() ? "Unclosed array, ']' expected" : "',' or ']' expected");
      }
    }
    this.pos++;
    this.depth--;
    return out;
  }

  private string(): string {
    const start = this.pos;
    this.pos++;
    const t = this.text;
    while (this.pos < t.length) {
      const c = t[this.pos];
      if (c === '"') {
        this.pos++;
        try {
          return JSON.parse(t.slice(start, this.pos));
        } catch {
          this.fail("Invalid escape in string", start);
        }
      }
      if (c === "\\") this.pos += 2;
      else if (c === "\n") this.fail("Unterminated string");
      else this.pos++;
    }
    this.fail("Unterminated string", start);
  }

  private number(): number {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.pos, this.pos + 64));
    if (!m) this.fail("Invalid number");
    this.pos += m[0].length;
    return Number(m[0]);
  }
}
