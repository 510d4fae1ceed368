// Flat config: typescript-eslint's type-aware rules over src/ and test/.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// A rule turned off for a line must say why, after ` -- ` (eslint's description syntax), so a
// reader can judge whether the reason still holds.
const disableNeedsReason = {
  meta: { type: 'suggestion', schema: [], messages: { missing: 'Say why after " -- ": `{{text}}`.' } },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          const text = comment.value.trim();
          if (/^eslint-disable(-next-line|-line)?\b/.test(text) && !/\s--\s+\S/.test(text)) {
            context.report({ loc: comment.loc, messageId: 'missing', data: { text } });
          }
        }
      },
    };
  },
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.ci/results*', '.ci/node[0-9]*/'] },
  { plugins: { kactl: { rules: { 'disable-needs-reason': disableNeedsReason } } }, rules: { 'kactl/disable-needs-reason': 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: { allowDefaultProject: ['*.js', 'bin/*.js', 'bench/*.mjs', '.ci/*.mjs'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Command code writes through the injected IO streams, never the console.
      'no-console': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // bin/package.json makes the launcher CommonJS (it starts sooner than an ES module), as
    // the benchmarks' yardstick is.
    files: ['bin/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**/*.ts', 'bench/**', '.ci/**', 'scripts/**', 'examples/**'],
    rules: {
      'no-console': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
