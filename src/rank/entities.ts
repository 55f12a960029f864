/**
 * The entity list: names that should boost the records containing them (a host, a service, a
 * project). TSV: column 1 the entity, optional column 2 its aliases separated by commas. Lines
 * that are blank or start with `#` are skipped. Anything else that does not fit is an error naming
 * the line, so a typo never silently drops an entity.
 *
 * Example:
 *   # entity	aliases
 *   prod-db	production database,pgprod,生产库
 *   gen-itgc
 */

export interface Entity {
  /** Column 1, trimmed. */
  readonly name: string;
  /** Column 2 split on commas, each trimmed; empty when the column is absent or empty. */
  readonly aliases: readonly string[];
  /** 1-based line number in the source, for messages. */
  readonly line: number;
}

/** Every name an entity goes by: its name first, then its aliases. */
export function entityForms(entity: Entity): readonly string[] {
  return [entity.name, ...entity.aliases];
}

/**
 * Parses an entity list. `source` names the file in error messages.
 * Throws SyntaxError `Cannot parse entity list "<source>": line N: <what is wrong>`.
 */
export function parseEntities(text: string, source = "entities"): Entity[] {
  const entities: Entity[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    const fail = (why: string): never => {
      throw new SyntaxError(`Cannot parse entity list "${source}": line ${lineNo}: ${why}`);
    };
    const trimmed = raw.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    const columns = raw.split("\t");
    if (columns.length > 2) fail(`expected at most 2 tab-separated columns, found ${columns.length}`);
    const name = (columns[0] as string).trim();
    if (name === "") fail("the entity (column 1) is empty");
    const aliasColumn = (columns[1] ?? "").trim();
    const aliases: string[] = [];
    if (aliasColumn !== "") {
      for (const alias of aliasColumn.split(",")) {
        const a = alias.trim();
        if (a === "") fail(`empty alias in "${aliasColumn}" (two commas in a row, or a comma at an end)`);
        aliases.push(a);
      }
    }
    entities.push({ name, aliases, line: lineNo });
  });
  return entities;
}
