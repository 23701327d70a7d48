// Parse AsyncAPI documents with the AsyncAPI project's own parser and print
// one line of JSON per document: {"path", "errors": [...], "warnings": [...],
// "messages": n, "operations": n, "sent": [operation ids the server sends]}.
// Exit status 1 when any document has errors or does not parse.
// Usage: node asyncapi_check.mjs docs/asyncapi.yaml [more.yaml ...]
import { Parser, fromFile } from "@asyncapi/parser";

const parser = new Parser();
const render = (d) => `${d.code}: ${d.message} at ${JSON.stringify(d.path)}`;
let failed = false;
for (const path of process.argv.slice(2)) {
  const { document, diagnostics } = await fromFile(parser, path).parse();
  const errors = diagnostics.filter((d) => d.severity === 0).map(render);
  const warnings = diagnostics.filter((d) => d.severity === 1).map(render);
  failed ||= !document || errors.length > 0;
  console.log(
    JSON.stringify({
      path,
      errors,
      warnings,
      messages: document ? document.allMessages().length : 0,
      operations: document ? document.operations().length : 0,
      sent: document ? document.operations().filterBySend().map((o) => o.id()) : [],
    }),
  );
}
process.exit(failed ? 1 : 0);
