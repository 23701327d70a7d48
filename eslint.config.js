// ESLint for the browser client (client/web/js) and its Node unit tests
// (tests/web/js): the recommended rules, with the globals each side has.
import js from "@eslint/js";
import globals from "globals";

export default [
  // Third-party copies (the vendored msgpack modules, the card faces) are
  // checked by their authors, not here; the rest of the repository is Python.
  { ignores: ["client/web/vendor/**", "node_modules/**", "examples/**", ".venv/**", "tests/tools/**"] },
  js.configs.recommended,
  {
    files: ["client/web/js/**/*.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["tests/web/js/**/*.js", "tools/**/*.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: globals.node },
  },
];
