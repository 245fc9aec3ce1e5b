// Builds one chart release: the pinned page, its content-hashed script and stylesheet, the payload
// JSON Schema, the example, and the partner SDK with its types. The output is a pure function of
// the source (esbuild and Ajv are pinned), so CI rebuilds it and compares it with the release
// checked in under dist/chart/ (test/chart/release.test.ts).
import { readFile } from 'node:fs/promises'
import { createHash } from 'node:crypto'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'
import { Ajv2020 } from 'ajv/dist/2020.js'
import standalone from 'ajv/dist/standalone/index.js'
import ts from 'typescript'
import { payloadJsonSchema } from './payload.ts'

const chartDir = path.dirname(fileURLToPath(import.meta.url))
const rootDir = path.dirname(chartDir)

/** A built release: file name → bytes. */
export type Release = Map<string, Uint8Array>

export async function buildChartRelease(version: string): Promise<Release> {
  const schema = payloadJsonSchema(version)
  const files: Release = new Map()
  const { script, stylesheet } = await bundleChart(schema)
  const scriptName = `chart-${shortHash(script)}.js`
  const stylesheetName = `chart-${shortHash(stylesheet)}.css`
  const template = await readFile(path.join(chartDir, 'src/index.html'), 'utf8')
  const page = template.replace('%SCRIPT%', scriptName).replace('%STYLESHEET%', stylesheetName)
  files.set('index.html', utf8(page))
  files.set(scriptName, script)
  files.set(stylesheetName, stylesheet)
  files.set('payload.schema.json', utf8(`${JSON.stringify(schema, null, 2)}\n`))
  files.set('example.json', await readFile(path.join(chartDir, 'example.json')))
  const sdk = await bundleSdk(version)
  files.set('sdk.js', sdk.script)
  files.set('sdk.d.ts', sdk.types)
  return files
}

/** The chart bundle, with the payload validator compiled from the published schema (no eval under CSP). */
async function bundleChart(schema: Record<string, unknown>): Promise<{ script: Uint8Array; stylesheet: Uint8Array }> {
  const result = await build({
    entryPoints: [path.join(chartDir, 'src/main.ts')],
    bundle: true,
    format: 'esm',
    target: ['es2022'],
    platform: 'browser',
    minify: true,
    legalComments: 'eof',
    write: false,
    outdir: 'out',
    entryNames: 'chart',
    plugins: [payloadValidatorPlugin(schema)],
    logLevel: 'silent',
    // Paths in the output (module comments) are relative to this, not to where the build ran.
    absWorkingDir: rootDir,
  })
  const script = result.outputFiles.find((file) => file.path.endsWith('.js'))
  const stylesheet = result.outputFiles.find((file) => file.path.endsWith('.css'))
  if (!script || !stylesheet) throw new Error('the chart build must give one script and one stylesheet')
  return { script: script.contents, stylesheet: stylesheet.contents }
}

/** `import { validatePayloadSchema } from 'virtual:payload-validator'` resolves to Ajv standalone code. */
function payloadValidatorPlugin(schema: Record<string, unknown>): Plugin {
  return {
    name: 'payload-validator',
    setup(plugin) {
      plugin.onResolve({ filter: /^virtual:payload-validator$/ }, () => ({
        path: 'payload-validator',
        namespace: 'payload-validator',
      }))
      plugin.onLoad({ filter: /.*/, namespace: 'payload-validator' }, () => {
        // First problem only (allErrors off): the chart reports one path, and stops early on huge input.
        const ajv = new Ajv2020({ code: { source: true, esm: true }, allErrors: false, strict: true })
        ajv.addSchema(schema, 'payload')
        return {
          contents: standalone.default(ajv, { validatePayloadSchema: 'payload' }),
          loader: 'js',
          resolveDir: rootDir,
        }
      })
    },
  }
}

async function bundleSdk(version: string): Promise<{ script: Uint8Array; types: Uint8Array }> {
  const entry = path.join(rootDir, 'sdk/household-chart.ts')
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    target: ['es2022'],
    platform: 'browser',
    // Readable on purpose: partners read what they load into their page.
    minify: false,
    legalComments: 'inline',
    write: false,
    outfile: 'sdk.js',
    define: { __CHART_VERSION__: JSON.stringify(version) },
    logLevel: 'silent',
    // Paths in the output (module comments) are relative to this, not to where the build ran.
    absWorkingDir: rootDir,
  })
  const script = result.outputFiles[0]
  if (!script) throw new Error('the SDK build gave no output')
  const source = await readFile(entry, 'utf8')
  const declarations = ts.transpileDeclaration(source, {
    fileName: 'household-chart.ts',
    compilerOptions: {
      allowImportingTsExtensions: true,
      isolatedDeclarations: true,
      declaration: true,
      target: ts.ScriptTarget.ES2022,
    },
    reportDiagnostics: true,
  })
  if (declarations.diagnostics && declarations.diagnostics.length > 0) {
    const first = declarations.diagnostics[0]
    throw new Error(`sdk/household-chart.ts: ${ts.flattenDiagnosticMessageText(first?.messageText ?? '', '\n')}`)
  }
  return { script: script.contents, types: utf8(declarations.outputText) }
}

function shortHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64url').slice(0, 10).replace(/[-_]/g, 'x')
}

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text)
}
