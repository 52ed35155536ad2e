// `npm run lint`: ESLint's and typescript-eslint's recommended rules, with type information, over the
// Worker, the tests, the benchmarks and the scripts. Formatting is Prettier's alone (eslint-config-prettier).
import eslint from "@eslint/js";
import eslintConfigPrettier from "eslint-config-prettier/flat";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  { ignores: ["node_modules/**", "**/.wrangler/**", "dist/**", "src/mcp/card/answer-card-document.ts"] },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: ["./tsconfig.json", "./tsconfig.node.json", "./tsconfig.card.json"], tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    rules: {
      // `_` names a value taken out on purpose (the rest of an object without it).
      "@typescript-eslint/no-unused-vars": ["error", { varsIgnorePattern: "^_", argsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    // Tests read JSON bodies as `any` and assert on their shape: the assertions are their type check.
    files: ["test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    files: ["**/*.{js,mjs,cjs}"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  eslintConfigPrettier,
);
