// The lint gate: typescript-eslint's strict type-checked and stylistic type-checked rules over every
// TypeScript file, with types from the tsconfig each file belongs to. Formatting is Prettier's job
// (`npm run format:check`); none of these configs carries a formatting rule, so nothing here fights it.
import js from '@eslint/js'
import { defineConfig, globalIgnores } from 'eslint/config'
import tseslint from 'typescript-eslint'

// Code that runs in a browser is typed by tsconfig.browser.json (DOM, no Node). The project service
// finds a file's types through the nearest tsconfig.json, which for these is the Node one that
// excludes them, so they name their tsconfig instead.
const browserFiles = ['src/web/client/**', 'chart/src/**', 'chart/payload.ts', 'chart/version.ts', 'sdk/**']

export default defineConfig(
  // dist/ holds released charts (their bytes never change), build/ the compiled program (npm run build),
  // data/ a local data directory.
  globalIgnores(['dist/', 'build/', 'data/']),
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js', 'vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    rules: {
      // Numbers read plainly in messages and URLs; other values (undefined, null, objects) still have
      // to be turned into text on purpose.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/restrict-plus-operands': ['error', { allowNumberAndString: true }],
      // An empty string is as good as unset for an environment variable or a form field, and `||`
      // says so; for other types `??` is still asked for.
      '@typescript-eslint/prefer-nullish-coalescing': ['error', { ignorePrimitives: { string: true } }],
      // With noUncheckedIndexedAccess every index read is `T | undefined`; `!` is how code says an index
      // is known to be in range (and non-nullable-type-assertion-style prefers it to `as T`).
      '@typescript-eslint/no-non-null-assertion': 'off',
      // `onClick={() => setOpen(false)}` and `.then(() => resolve())` say what they do; a void value
      // returned from an arrow's shorthand body is never read.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // An async function without await still turns a throw into a rejection, which is what callers of
      // a Promise-returning interface (a store, a check, a route handler) expect of it.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['test/**'],
    rules: {
      // vitest's asymmetric matchers (expect.any(String), expect.stringMatching(…)) are typed `any`, so
      // that they fit any property they stand for.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      // afterAll cleans up after a beforeAll that may have failed part-way, so `browser?.close()` there is
      // needed although the tests (rightly) see `browser` as set.
      '@typescript-eslint/no-unnecessary-condition': 'off',
    },
  },
  {
    files: browserFiles,
    languageOptions: {
      parserOptions: { projectService: false, project: './tsconfig.browser.json' },
    },
  },
  {
    // Plain JavaScript that no tsconfig types: the CLI's launcher, the build scripts, autocannon's
    // CommonJS hook and the demo partner's page scripts. Lint them without types; their few globals
    // are named below.
    files: ['bin/**/*.js', 'scripts/**/*.js', 'bench/**/*.cjs', 'src/demo-partner/public/**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['bin/**/*.js', 'scripts/**/*.js', 'bench/**/*.cjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', performance: 'readonly', module: 'writable' },
    },
  },
  {
    files: ['src/demo-partner/public/**/*.js'],
    languageOptions: { globals: { document: 'readonly', fetch: 'readonly' } },
  },
)
