// ESLint for the browser client (client/web/js) and the repository's Node
// scripts (its unit tests in tests/web/js, tools/maintenance/*.mjs): the
// recommended rules, with the globals each side has.
import js from "@eslint/js";
import globals from "globals";

export default [
  // Third-party copies (the vendored msgpack modules, the card faces) are
  // checked by their authors, not here; build/ holds copies made by
  // `make dist`; the Node example bot (examples/node-bot) is a project of its own.
  { ignores: ["client/web/vendor/**", "node_modules/**", "examples/**", ".venv/**", "build/**", "dist/**"] },
  js.configs.recommended,
  {
    files: ["client/web/js/**/*.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["tests/**/*.js", "tests/**/*.mjs", "tools/**/*.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: globals.node },
  },
];
