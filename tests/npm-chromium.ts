// A headless Chromium that comes from the npm registry alone: @sparticuz/chromium ships the
// binary, its fonts, SwiftShader and the NSS/expat libraries it links against, brotli-packed,
// inside the package (no install script, no download). This unpacks them once into
// node_modules/.cache and returns what playwright-core's `chromium.launch` needs, so the browser
// test runs the same on a fresh clone, in `npm test` and in CI, whatever browser the system has.
import { existsSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { promisify } from 'node:util'
import { brotliDecompress } from 'node:zlib'
import sparticuz from '@sparticuz/chromium'
import { extract } from 'tar-fs'

const unbrotli = promisify(brotliDecompress)
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const packageDir = join(root, 'node_modules', '@sparticuz', 'chromium')

// The closed network refuses Chromium's background connections; these keep it from trying.
const QUIET = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic']

export interface NpmChromium {
  /** The package's version; its major is the Chromium major it ships. */
  version: string
  executablePath: string
  args: string[]
  env: Record<string, string>
}

export async function npmChromium(): Promise<NpmChromium> {
  const version = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')).version as string
  const dir = await unpacked(version)
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    LD_LIBRARY_PATH: [join(dir, 'lib'), dir, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
    FONTCONFIG_PATH: join(dir, 'fonts'),
    HOME: dir,
  }
  return { version, executablePath: join(dir, 'chromium'), args: [...sparticuz.args, ...QUIET], env }
}

async function unpacked(version: string): Promise<string> {
  const dir = join(root, 'node_modules', '.cache', 'toolreg-chromium', version)
  if (existsSync(join(dir, 'chromium'))) return dir
  await mkdir(dirname(dir), { recursive: true })
  const work = await mkdtemp(`${dir}.tmp-`)
  const bin = join(packageDir, 'bin')
  await writeFile(join(work, 'chromium'), await unbrotli(await readFile(join(bin, 'chromium.br'))))
  await chmod(join(work, 'chromium'), 0o755)
  await untar(await unbrotli(await readFile(join(bin, 'swiftshader.tar.br'))), work)
  await untar(await unbrotli(await readFile(join(bin, 'al2023.tar.br'))), work)
  await untar(await unbrotli(await readFile(join(bin, 'fonts.tar.br'))), join(work, 'fonts'))
  // The package's fonts.conf names /tmp/fonts; point fontconfig at the fonts unpacked here.
  const conf = `<?xml version="1.0"?>\n<fontconfig><dir>${join(dir, 'fonts', 'fonts')}</dir>` +
    `<cachedir>${join(dir, 'fonts-cache')}</cachedir></fontconfig>\n`
  await writeFile(join(work, 'fonts', 'fonts.conf'), conf)
  try {
    await rename(work, dir)
  } catch (error) {
    // Another process unpacked the same version first: use theirs.
    await rm(work, { recursive: true, force: true })
    if (!existsSync(join(dir, 'chromium'))) throw error
  }
  return dir
}

function untar(tar: Buffer, into: string): Promise<void> {
  return pipeline(Readable.from([tar]), extract(into))
}
