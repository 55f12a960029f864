import assert from "node:assert/strict";
import { entityForms, parseEntities } from "../../src/rank/entities.ts";

Deno.test("parseEntities() reads entities with optional comma-separated aliases", () => {
  const text =
    "# entity\taliases\n\nprod-db\tproduction database, pgprod ,生产库\r\ngen-itgc\n  # indented comment\n";
  const entities = parseEntities(text);
  assert.deepEqual(entities, [
    { name: "prod-db", aliases: ["production database", "pgprod", "生产库"], line: 3 },
    { name: "gen-itgc", aliases: [], line: 4 },
  ]);
  assert.deepEqual(entityForms(entities[0]!), ["prod-db", "production database", "pgprod", "生产库"]);
});

Deno.test("parseEntities() accepts an empty alias column", () => {
  assert.deepEqual(parseEntities("build-box\t\n"), [{ name: "build-box", aliases: [], line: 1 }]);
});

Deno.test("parseEntities() rejects a malformed line and names it", () => {
  assert.throws(() => parseEntities("ok\n\ta,b\n", "ents.tsv"), {
    name: "SyntaxError",
    message: 'Cannot parse entity list "ents.tsv": line 2: the entity (column 1) is empty',
  });
  assert.throws(() => parseEntities("a\tb\tc"), /line 1: expected at most 2 tab-separated columns, found 3/);
  assert.throws(() => parseEntities("x\n# c\na\tb,,c"), /line 3: empty alias/);
  assert.throws(() => parseEntities("a\tb,"), /line 1: empty alias/);
});
