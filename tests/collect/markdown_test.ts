import assert from "node:assert/strict";
import {
  type MarkdownSection,
  parseAtxHeading,
  SECTION_MAX_CHARS,
  splitMarkdown,
} from "../../src/collect/markdown.ts";

/** The sections without their whole-section text (checked on its own below). */
function plain(sections: readonly MarkdownSection[]) {
  return sections.map(({ section: _s, endLine: _e, ...rest }) => rest);
}

Deno.test("splitMarkdown() starts a section at each ATX heading, text before the first at line 1", () => {
  const text = [
    "Intro line.", // 1
    "", // 2
    "# Title", // 3
    "Title body.", // 4
    "## Decision", // 5
    "", // 6
    "We use BM25.", // 7
    "### Why", // 8
    "It is simple.", // 9
    "## Later", // 10
    "Later body.", // 11
  ].join("\n");
  assert.deepEqual(plain(splitMarkdown(text)), [
    { startLine: 1, headings: [], text: "Intro line." },
    { startLine: 3, headings: ["Title"], text: "# Title\nTitle body." },
    { startLine: 5, headings: ["Title", "Decision"], text: "## Decision\n\nWe use BM25." },
    { startLine: 8, headings: ["Title", "Decision", "Why"], text: "### Why\nIt is simple." },
    { startLine: 10, headings: ["Title", "Later"], text: "## Later\nLater body." },
  ]);
});

Deno.test("splitMarkdown() ignores headings inside fenced code blocks", () => {
  const text = [
    "# Setup", // 1
    "```sh", // 2
    "# not a heading", // 3
    "````", // 4 (closes: a longer run of the same character)
    "~~~", // 5
    "## still code", // 6
    "```", // 7 (a backtick run does not close a tilde fence)
    "~~~", // 8
    "# Next", // 9
    "body", // 10
  ].join("\n");
  const sections = splitMarkdown(text);
  assert.deepEqual(sections.map((s) => [s.startLine, s.headings]), [[1, ["Setup"]], [9, ["Next"]]]);
  assert.match(sections[0]?.text ?? "", /# not a heading\n````\n~~~\n## still code/);
});

Deno.test("splitMarkdown() treats an unclosed fence as code to the end of the file", () => {
  const sections = splitMarkdown("# A\n```\n# B\ntext\n");
  assert.equal(sections.length, 1);
  assert.deepEqual(sections[0]?.headings, ["A"]);
});

Deno.test("splitMarkdown() drops sections with only a heading but keeps them in the heading path", () => {
  const sections = splitMarkdown("# Project\n\n## Empty\n\n   \n## Notes\n### Detail\nfact\n");
  assert.deepEqual(plain(sections), [{
    startLine: 7,
    headings: ["Project", "Notes", "Detail"],
    text: "### Detail\nfact",
  }]);
});

Deno.test("splitMarkdown() returns nothing for empty or blank text", () => {
  assert.deepEqual(splitMarkdown(""), []);
  assert.deepEqual(splitMarkdown("\n\n  \n"), []);
  assert.deepEqual(splitMarkdown("# Only\n## Headings\n"), []);
});

Deno.test("parseAtxHeading() follows the ATX rules", () => {
  const table: [string, { level: number; text: string } | null][] = [
    ["# Title", { level: 1, text: "Title" }],
    ["###### Six", { level: 6, text: "Six" }],
    ["####### Seven", null],
    ["#hashtag", null],
    ["   ## Indented three", { level: 2, text: "Indented three" }],
    ["    ## Indented four (code)", null],
    ["## Closed ##", { level: 2, text: "Closed" }],
    ["## C# language", { level: 2, text: "C# language" }],
    ["#", { level: 1, text: "" }],
    ["## ##", { level: 2, text: "" }],
  ];
  for (const [line, expected] of table) assert.deepEqual(parseAtxHeading(line), expected, line);
});

Deno.test("splitMarkdown() handles CRLF line ends and a byte order mark", () => {
  const sections = splitMarkdown("\uFEFF# A\r\nbody a\r\n# B\r\nbody b\r\n");
  assert.deepEqual(plain(sections), [
    { startLine: 1, headings: ["A"], text: "# A\nbody a" },
    { startLine: 3, headings: ["B"], text: "# B\nbody b" },
  ]);
});

Deno.test("splitMarkdown() skips YAML front matter, whose # comments are not headings", () => {
  const text = "---\ntitle: x\n# a yaml comment\n---\nFirst paragraph.\n# Head\nbody\n";
  assert.deepEqual(plain(splitMarkdown(text)), [
    { startLine: 5, headings: [], text: "First paragraph." },
    { startLine: 6, headings: ["Head"], text: "# Head\nbody" },
  ]);
});

Deno.test("splitMarkdown() cuts a long section at paragraph boundaries with each chunk's own start line", () => {
  const para = (n: number) => `Paragraph ${n} ` + "word ".repeat(80).trim(); // ~ 413 chars
  const lines = ["# Long", ""];
  for (let i = 1; i <= 12; i++) lines.push(para(i), "");
  const sections = splitMarkdown(lines.join("\n"));
  assert.ok(sections.length >= 3, `expected several chunks, got ${sections.length}`);
  for (const s of sections) {
    assert.ok(s.text.length <= SECTION_MAX_CHARS + 10, `chunk of ${s.text.length} chars`);
    assert.deepEqual(s.headings, ["Long"]);
    // Every chunk starts on a paragraph start, at the line that holds it.
    const first = s.text.split("\n")[0] ?? "";
    assert.equal(lines[s.startLine - 1], first);
  }
  assert.equal(sections[0]?.startLine, 1);
  assert.match(sections[0]?.text ?? "", /^# Long\n\nParagraph 1 /);
  // Nothing is lost or repeated.
  const joined = sections.map((s) => s.text).join("\n\n");
  for (let i = 1; i <= 12; i++) assert.equal(joined.split(`Paragraph ${i} `).length, 2);
});

Deno.test("splitMarkdown() never leaves a heading alone in a chunk before an oversized paragraph", () => {
  const big = "x".repeat(SECTION_MAX_CHARS - 5);
  const sections = splitMarkdown(`# Head\n\n${big}\n`);
  assert.ok(sections.every((s) => s.text.trim() !== "# Head"));
  assert.match(sections[0]?.text ?? "", /^# Head\n\nx+/);
});

Deno.test("splitMarkdown() cuts a single overlong line and keeps its line number on every piece", () => {
  const line = "y".repeat(SECTION_MAX_CHARS * 2 + 7);
  const sections = splitMarkdown(`intro\n\n${line}\n`);
  assert.deepEqual(sections.map((s) => s.startLine), [1, 3, 3, 3]);
  assert.equal(sections.slice(1).map((s) => s.text).join("").length, line.length);
});

Deno.test("splitMarkdown() does not treat blank lines inside a fenced block as paragraph breaks", () => {
  const before = "Before. " + "a".repeat(1000);
  const code = ["```", ...Array.from({ length: 24 }, (_, i) => `line ${i} ${"z".repeat(40)}\n`), "```"].join(
    "\n",
  );
  const after = "After. " + "b".repeat(600);
  const sections = splitMarkdown(`# Code\n\n${before}\n\n${code}\n\n${after}\n`);
  assert.ok(sections.length >= 2);
  const withCode = sections.filter((s) => s.text.includes("line "));
  assert.equal(withCode.length, 1, "the code block is kept in one chunk");
  assert.equal(withCode[0]?.text.split("```").length, 3);
});

Deno.test("splitMarkdown() gives every chunk of a long section the text of the whole section", () => {
  const para = (n: number) => `Paragraph ${n} ` + "word ".repeat(80).trim();
  const text = ["# Long", "", ...[1, 2, 3, 4, 5, 6].flatMap((n) => [para(n), ""]), "# Next", "short"].join(
    "\n",
  );
  const sections = splitMarkdown(text);
  const long = sections.filter((s) => s.headings[0] === "Long");
  assert.ok(long.length >= 2, "the section was cut into chunks");
  for (const chunk of long) {
    assert.equal(chunk.section, long[0]!.section, "one shared section object");
    assert.ok(chunk.section.text.startsWith("# Long\n") && chunk.section.text.includes("Paragraph 6"));
    assert.ok(chunk.endLine >= chunk.startLine);
  }
  assert.equal(long[0]!.section.startLine, 1);
  assert.deepEqual(sections.at(-1)?.section, { startLine: 15, text: "# Next\nshort" });
});
