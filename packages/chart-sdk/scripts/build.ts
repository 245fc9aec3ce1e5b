// What `npm pack` ships (prepack): the partner SDK built from sdk/household-chart.ts by the chart's own
// release build (chart/build.ts, esbuild), as dist/index.js and dist/index.d.ts, and <HouseholdChart>
// (src/react.tsx) as dist/react.js and dist/react.d.ts, importing the SDK from ./index.js.
// The package's version is the chart's: the SDK mounts the chart release of its own version.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import ts from 'typescript'
import { buildChartRelease } from '../../../chart/build.ts'
import { CHART_VERSION } from '../../../chart/version.ts'

const packageDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
const rootDir = path.dirname(path.dirname(packageDir))
const outDir = path.join(packageDir, 'dist')
/** How react.tsx imports the SDK in the repository, and what it is in the package. */
const SDK_SOURCE_IMPORT = './index.ts'
const SDK_PACKAGE_IMPORT = './index.js'

async function main(): Promise<void> {
  const { version } = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as { version: string }
  if (version !== CHART_VERSION) {
    throw new Error(
      `packages/chart-sdk/package.json says ${version} but the chart source is ${CHART_VERSION} (chart/version.ts): give the package the chart's version`,
    )
  }
  const release = await buildChartRelease(version)
  const script = release.get('sdk.js')
  const types = release.get('sdk.d.ts')
  if (!script || !types) throw new Error('the chart release has no sdk.js or sdk.d.ts')
  // A published release never changes a byte: the package ships exactly what the embed origin serves.
  const published = path.join(rootDir, 'dist/chart', `v${version}`)
  if (existsSync(published)) {
    for (const [name, bytes] of [
      ['sdk.js', script],
      ['sdk.d.ts', types],
    ] as const) {
      if (!Buffer.from(bytes).equals(await readFile(path.join(published, name)))) {
        throw new Error(
          `${name} built from the source differs from dist/chart/v${version}/${name}: the source changed after the release`,
        )
      }
    }
  }
  await rm(outDir, { recursive: true, force: true })
  await mkdir(outDir, { recursive: true })
  await writeFile(path.join(outDir, 'index.js'), script)
  await writeFile(path.join(outDir, 'index.d.ts'), types)
  await writeFile(path.join(outDir, 'react.js'), await reactScript())
  await writeFile(path.join(outDir, 'react.d.ts'), await reactTypes())
}

async function reactScript(): Promise<Uint8Array> {
  const result = await build({
    entryPoints: [path.join(packageDir, 'src/react.tsx')],
    bundle: true,
    format: 'esm',
    target: ['es2022'],
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'react',
    external: ['react', 'react/jsx-runtime'],
    plugins: [
      {
        name: 'sdk-import',
        setup(plugin) {
          plugin.onResolve({ filter: /^\.\/index\.ts$/ }, () => ({ path: SDK_PACKAGE_IMPORT, external: true }))
        },
      },
    ],
    minify: false,
    write: false,
    outfile: 'react.js',
    logLevel: 'silent',
    absWorkingDir: packageDir,
  })
  const output = result.outputFiles[0]
  if (!output) throw new Error('the React component build gave no output')
  if (!output.text.includes(`from "${SDK_PACKAGE_IMPORT}"`))
    throw new Error('react.js does not import the SDK from ./index.js')
  return output.contents
}

async function reactTypes(): Promise<string> {
  const source = await readFile(path.join(packageDir, 'src/react.tsx'), 'utf8')
  const declarations = ts.transpileDeclaration(source, {
    fileName: 'react.tsx',
    compilerOptions: {
      allowImportingTsExtensions: true,
      isolatedDeclarations: true,
      declaration: true,
      jsx: ts.JsxEmit.ReactJSX,
      target: ts.ScriptTarget.ES2022,
    },
    reportDiagnostics: true,
  })
  const first = declarations.diagnostics?.[0]
  if (first) throw new Error(`src/react.tsx: ${ts.flattenDiagnosticMessageText(first.messageText, '\n')}`)
  const text = declarations.outputText.replaceAll(`'${SDK_SOURCE_IMPORT}'`, `'${SDK_PACKAGE_IMPORT}'`)
  if (!text.includes(`'${SDK_PACKAGE_IMPORT}'`)) throw new Error('react.d.ts does not import the SDK from ./index.js')
  return text
}

await main()
